package local

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/ports"
)

var _ ports.Embedder = (*Embedder)(nil)

func embed(t testing.TB, e *Embedder, dims int, texts ...string) [][]float32 {
	t.Helper()
	vs, err := e.Embed(context.Background(), texts, dims)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if len(vs) != len(texts) {
		t.Fatalf("Embed gave %d vectors for %d texts", len(vs), len(texts))
	}
	return vs
}

func cosine(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestEmbedDeterministic(t *testing.T) {
	texts := make([]string, 40)
	r := rand.New(rand.NewPCG(1, 1))
	for i := range texts {
		texts[i] = randomText(r, 50+r.IntN(500))
	}
	one := embed(t, NewEmbedder(), 0, texts...) // a batch large enough to run in parallel
	for i, text := range texts {
		if again := embed(t, NewEmbedder(), 0, text)[0]; !slices.Equal(one[i], again) {
			t.Errorf("text %d: a different vector alone than in a batch", i)
		}
	}
	e := NewEmbedder()
	first := embed(t, e, 64, "Do you deliver to Porto?")[0]
	for range 3 {
		if again := embed(t, e, 64, "Do you deliver to Porto?")[0]; !slices.Equal(first, again) {
			t.Fatal("the same text gave different vectors")
		}
	}
}

func TestEmbedNormalised(t *testing.T) {
	long := randomText(rand.New(rand.NewPCG(2, 2)), 4000)
	texts := []string{"hours", "9", "Do you deliver to Porto?", "do you", "Привет мир", "東京の営業時間", long, strings.Repeat("cake ", 1000)}
	for _, dims := range []int{1, 2, 16, 256, 4096} {
		for i, v := range embed(t, NewEmbedder(), dims, texts...) {
			if n := math.Sqrt(cosine(v, v)); math.Abs(n-1) > 1e-6 {
				t.Errorf("dims %d: %q has norm %v", dims, texts[i][:min(len(texts[i]), 30)], n)
			}
		}
	}
}

func TestEmbedEmpty(t *testing.T) {
	vs := embed(t, NewEmbedder(), 8, "", "   ", "?!.")
	for i, v := range vs {
		if !slices.Equal(v, make([]float32, 8)) {
			t.Errorf("text %d: %v, want the zero vector", i, v)
		}
	}
	if vs := embed(t, NewEmbedder(), 0); len(vs) != 0 {
		t.Errorf("no texts gave %d vectors", len(vs))
	}
}

func TestEmbedDimensions(t *testing.T) {
	tests := []struct {
		dims, want int
	}{
		{0, DefaultDimensions},
		{1, 1},
		{7, 7},
		{300, 300},
		{MaxDimensions, MaxDimensions},
		{-1, 0},
		{MaxDimensions + 1, 0},
	}
	for _, tt := range tests {
		vs, err := NewEmbedder().Embed(context.Background(), []string{"opening hours", "delivery"}, tt.dims)
		if tt.want == 0 {
			if e, ok := domain.AsError(err); !ok || e.Code != domain.CodeInvalidRequest || e.Field != "dimensions" {
				t.Errorf("dimensions %d: error %v, want invalid_request on dimensions", tt.dims, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("dimensions %d: %v", tt.dims, err)
			continue
		}
		for _, v := range vs {
			if len(v) != tt.want {
				t.Errorf("dimensions %d: a vector of %d", tt.dims, len(v))
			}
		}
	}
}

func TestEmbedSimilarity(t *testing.T) {
	tests := []struct {
		lang                     string
		text, similar, unrelated string
	}{
		{"en", "do you deliver to Porto?", "delivery to Porto", "opening hours on sunday"},
		{"en", "What are your opening hours?", "when do you open", "do you deliver to Porto?"},
		{"en", "Can I return a damaged cake?", "returns of damaged cakes", "which payment methods do you accept"},
		{"en", "gluten-free bread", "do you have bread without gluten", "parking near the shop"},
		{"pt", "Fazem entregas no Porto?", "entrega no Porto", "horário de funcionamento ao domingo"},
		{"pt", "Qual é o horário de funcionamento?", "horários de abertura e funcionamento", "aceitam cartões de crédito?"},
		{"pt", "Aceitam pagamento com cartão?", "pagamentos com cartões", "entregas em Gaia"},
		{"es", "¿Hacéis envíos a Madrid?", "envío a Madrid", "horario de apertura los domingos"},
		{"es", "¿Cuál es el horario de la tienda?", "horarios de tiendas", "devoluciones y reembolsos"},
		{"es", "¿Tienen pan sin gluten?", "panes sin gluten", "envíos internacionales"},
	}
	for _, dims := range []int{64, 256} {
		for _, tt := range tests {
			vs := embed(t, NewEmbedder(), dims, tt.text, tt.similar, tt.unrelated)
			similar, other := cosine(vs[0], vs[1]), cosine(vs[0], vs[2])
			if similar <= other+0.1 {
				t.Errorf("dims %d, %s: cos(%q, %q) = %.3f, not above cos(…, %q) = %.3f", dims, tt.lang, tt.text, tt.similar, similar, tt.unrelated, other)
			}
		}
	}
}

func TestEmbedCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, n := range []int{1, 100} {
		if _, err := NewEmbedder().Embed(ctx, make([]string, n), 0); !errors.Is(err, context.Canceled) {
			t.Errorf("%d texts: error %v, want context.Canceled", n, err)
		}
	}
}

// BenchmarkEmbed embeds one text of 4,000 characters.
func BenchmarkEmbed(b *testing.B) {
	e := NewEmbedder()
	text := randomText(rand.New(rand.NewPCG(3, 3)), 4000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(context.Background(), []string{text}, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmbedIndex300 embeds 300 texts of 4,000 characters in one call, as indexing does.
func BenchmarkEmbedIndex300(b *testing.B) {
	e := NewEmbedder()
	r := rand.New(rand.NewPCG(4, 4))
	texts := make([]string, 300)
	for i := range texts {
		texts[i] = randomText(r, 4000)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(context.Background(), texts, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// randomText returns about n characters of sentences of English, Portuguese and Spanish words.
func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			if r.IntN(10) == 0 {
				b.WriteString(". ")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(words[r.IntN(len(words))])
	}
	return b.String()
}

var words = strings.Fields(`
the a of to and in for on with we you our your is are can do does from at by this that
bread cake coffee delivery order shipping return refund payment card cash invoice store shop
opening hours monday tuesday friday saturday sunday holiday price discount voucher gift size
colour fabric cotton leather shoes jacket dress table chair garden kitchen room booking menu
lunch dinner breakfast vegan gluten allergy ingredient recipe fresh organic warranty repair
service appointment doctor clinic account password email phone address street porto lisbon
o a de do da em no para com que os as um uma são pão bolo entrega encomenda envio devolução
reembolso pagamento cartão fatura loja horário segunda sábado domingo preço desconto tamanho
el la los las de del en con por que es un una pan pastel pedido envío devolución pago tarjeta
tienda lunes sábado domingo precio descuento talla zapato chaqueta silla jardín cocina cita
`)

// TestRetrieval ranks a small shop's knowledge with the embedder's vectors and the domain index.
func TestRetrieval(t *testing.T) {
	pages := []knowledge.Page{
		{URL: "/hours", Title: "Opening hours", Content: "Our shop in Porto is open Monday to Friday from 8:00 to 19:00 and on Saturday from 8:00 to 13:00. We are closed on Sundays."},
		{URL: "/delivery", Title: "Delivery", Content: "We deliver cakes and bread in Porto, Gaia and Matosinhos. Delivery is free above 30 euros."},
		{URL: "/returns", Title: "Returns", Content: "Fresh products cannot be returned. A damaged cake is refunded within 5 days."},
		{URL: "/pt/entregas", Title: "Entregas", Content: "Entregamos bolos e pão no Porto, em Gaia e em Matosinhos. A entrega é gratuita acima de 30 euros."},
		{URL: "/es/alergias", Title: "Alergias", Content: "Tenemos panes sin gluten elaborados en un horno separado."},
	}
	faqs := []knowledge.FAQ{
		{ID: "faq-hours", Question: "What are your opening hours?", Answer: "Monday to Friday 8:00–19:00."},
		{ID: "faq-pay", Question: "Which payment methods do you accept?", Answer: "Cards, MB WAY and cash."},
		{ID: "faq-envios", Question: "¿Hacéis envíos a Madrid?", Answer: "No, solo en la zona de Oporto."},
	}
	e := NewEmbedder()
	var docs []knowledge.Doc
	for _, p := range pages {
		for _, c := range knowledge.Split(p, 0, 0) {
			c.ID = p.URL
			docs = append(docs, knowledge.Doc{Chunk: c, Vector: embed(t, e, 0, c.Title+"\n"+c.Text)[0]})
		}
	}
	for i := range faqs {
		faqs[i].Vector = embed(t, e, 0, faqs[i].Question)[0]
	}
	ix := knowledge.NewIndex(docs, faqs, NewStemmer(), sharedWords)
	tests := []struct {
		query, want string
		strong      bool
	}{
		{"What are your opening hours?", "faq-hours", true},
		{"When is the shop open?", "/hours", false}, // the engine answers with faq-hours (TestReplyRetrieval)
		{"Do you accept card payments?", "faq-pay", false},
		{"¿Hacen envíos a Madrid?", "faq-envios", false},
		{"Do you deliver to Gaia?", "/delivery", false},
		{"Fazem entregas em Matosinhos?", "/pt/entregas", false},
		{"¿Tienen pan sin gluten?", "/es/alergias", false},
		{"Can I return a damaged cake?", "/returns", false},
	}
	for _, tt := range tests {
		hits := ix.Search(tt.query, embed(t, e, 0, tt.query)[0], 3)
		if len(hits) == 0 {
			t.Errorf("%q: no hits", tt.query)
			continue
		}
		if got := hits[0].Chunk.ID + hits[0].FAQ.ID; got != tt.want || hits[0].Strong != tt.strong {
			t.Errorf("%q: first %s (strong %v, score %.3f), want %s (strong %v)", tt.query, got, hits[0].Strong, hits[0].Score, tt.want, tt.strong)
		}
	}
	for _, q := range []string{"quantum physics lecture notes", "who won the football match"} {
		for _, h := range ix.Search(q, embed(t, e, 0, q)[0], 3) {
			if h.Strong || h.Score > 0.15 {
				t.Errorf("%q: %s%s scores %.3f (strong %v)", q, h.Chunk.ID, h.FAQ.ID, h.Score, h.Strong)
			}
		}
	}
}
