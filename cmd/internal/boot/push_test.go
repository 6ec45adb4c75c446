package boot_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/store/storetest"
	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/domain/push"
)

// TestPushKeys: without SVC_VAPID_* every process of a deployment (here, concurrent calls over one
// store) gets the same generated pair, kept with its private key sealed; with them set, those.
func TestPushKeys(t *testing.T) {
	db := storetest.SQLite(t)
	settings := store.NewSettings(db)
	cfg, err := config.Load(func(name string) (string, bool) {
		v, ok := map[string]string{"SVC_DATABASE_URL": "sqlite://unused.db"}[name]
		return v, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	vault, err := boot.Vault(t.Context(), cfg, settings)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	keys := make([]push.Keys, 4)
	for i := range keys {
		wg.Go(func() {
			k, err := boot.PushKeys(t.Context(), cfg, settings, vault)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if k != keys[0] {
			t.Fatalf("two processes got different pairs: %s and %s", keys[0], k)
		}
	}
	if err := push.CheckKeys(keys[0].Public, keys[0].Private); err != nil || keys[0].Subject != "mailto:no-reply@localhost" {
		t.Fatalf("generated %s: %v, subject %q", keys[0], err, keys[0].Subject)
	}
	var stored string
	if err := db.NewRaw("SELECT value FROM service_settings WHERE name = 'vapid_keys'").Scan(t.Context(), &stored); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stored, keys[0].Public) || strings.Contains(stored, keys[0].Private) {
		t.Errorf("the stored pair %s: want the public key and the private one sealed", stored)
	}

	cfg.VAPIDPublicKey, cfg.VAPIDPrivateKey, cfg.VAPIDSubject = "BPUB", "PRIV", "mailto:ops@example.com"
	if k, err := boot.PushKeys(t.Context(), cfg, settings, vault); err != nil || k != (push.Keys{Public: "BPUB", Private: "PRIV", Subject: "mailto:ops@example.com"}) {
		t.Errorf("with SVC_VAPID_* set: %s, %v", k, err)
	}
}
