package knowledge

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplitEmpty(t *testing.T) {
	for _, content := range []string{"", "   ", "\n\n\t \n"} {
		if got := Split(Page{Content: content}, 0, 0); got != nil {
			t.Errorf("Split(%q) = %v, want no chunks", content, got)
		}
	}
}

func TestSplitShort(t *testing.T) {
	p := Page{URL: "https://example.com/a", Title: "About", Content: "  We bake   bread\tdaily.\n\n\n Open 8-18.  "}
	got := Split(p, 0, 0)
	want := []Chunk{{URL: p.URL, Title: "About", Text: "We bake bread daily.\n\nOpen 8-18.", Ordinal: 0}}
	if !slices.Equal(got, want) {
		t.Errorf("Split = %#v, want %#v", got, want)
	}
}

func TestSplitBoundaries(t *testing.T) {
	para := func(label string, n int) string { // n sentences of about 50 characters
		var s []string
		for i := range n {
			s = append(s, fmt.Sprintf("This is sentence %d of paragraph %s, said plainly.", i, label))
		}
		return strings.Join(s, " ")
	}
	tests := []struct {
		name          string
		content       string
		size, overlap int
		wantEnds      []string // each chunk but the last ends with this
	}{
		{
			name:     "paragraphs",
			content:  para("A", 6) + "\n\n" + para("B", 6) + "\n\n" + para("C", 6),
			size:     800,
			overlap:  -1,
			wantEnds: []string{"paragraph B, said plainly."},
		},
		{
			name:     "lines before sentences",
			content:  para("A", 5) + "\n" + para("B", 5) + "\n" + para("C", 5),
			size:     400,
			overlap:  -1,
			wantEnds: []string{"4 of paragraph A, said plainly.", "4 of paragraph B, said plainly."},
		},
		{
			name:     "sentences",
			content:  para("A", 20),
			size:     200,
			overlap:  -1,
			wantEnds: slices.Repeat([]string{"said plainly."}, 4),
		},
	}
	for _, tt := range tests {
		chunks := Split(Page{Content: tt.content}, tt.size, tt.overlap)
		checkChunks(t, tt.name, tt.content, chunks, tt.size, tt.overlap)
		if len(chunks) < len(tt.wantEnds)+1 {
			t.Errorf("%s: %d chunks, want at least %d", tt.name, len(chunks), len(tt.wantEnds)+1)
			continue
		}
		for i, end := range tt.wantEnds {
			if !strings.HasSuffix(chunks[i].Text, end) {
				t.Errorf("%s: chunk %d ends %q, want …%q", tt.name, i, tail(chunks[i].Text, 40), end)
			}
		}
	}
}

func TestSplitOverlap(t *testing.T) {
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "Fresh bread number %d every morning from our wood oven. ", i)
	}
	content := b.String()
	chunks := Split(Page{Content: content}, 300, 80)
	if len(chunks) < 5 {
		t.Fatalf("%d chunks, want several", len(chunks))
	}
	checkChunks(t, "overlap", content, chunks, 300, 80)
	for i := 1; i < len(chunks); i++ {
		if n := overlapOf(chunks[i-1].Text, chunks[i].Text); n == 0 {
			t.Errorf("chunk %d does not begin with the end of chunk %d", i, i-1)
		}
		if !strings.HasPrefix(chunks[i].Text, "Fresh") {
			t.Errorf("chunk %d begins %q, want the overlap to begin a sentence", i, chunks[i].Text[:20])
		}
	}
}

func TestSplitLongWords(t *testing.T) {
	huge := strings.Repeat("x", 500)
	content := "Short start. " + huge + " and the end."
	chunks := Split(Page{Content: content}, 100, 20)
	checkChunks(t, "huge word", content, chunks, 100, 20)
	found := false
	for _, c := range chunks {
		if c.Text == huge {
			found = true
		}
	}
	if !found {
		t.Errorf("the huge word is not a chunk of its own: %v", chunks)
	}

	// A sentence longer than a chunk is cut between words.
	var long string
	for i := range 200 {
		long += fmt.Sprintf("word%d ", i)
	}
	checkChunks(t, "long sentence", long, Split(Page{Content: long}, 120, 30), 120, 30)
}

func TestSplitCountsCharacters(t *testing.T) {
	var content string
	for i := range 100 {
		content += fmt.Sprintf("pão açúcar maçã café%d ", i)
	}
	chunks := Split(Page{Content: content}, 100, 20)
	checkChunks(t, "accents", content, chunks, 100, 20)
	if n := utf8.RuneCountInString(chunks[0].Text); n < 80 {
		t.Errorf("first chunk has %d characters, want close to 100 (bytes are not characters)", n)
	}
}

func TestSplitRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		content := randomText(r, 50+r.IntN(3000), true)
		size := 50 + r.IntN(900)
		overlap := r.IntN(size) - size/4
		checkChunks(t, fmt.Sprintf("random %d", i), content, Split(Page{Content: content}, size, overlap), size, overlap)
	}
}

func TestSplitDefaults(t *testing.T) {
	content := randomText(rand.New(rand.NewPCG(3, 4)), 5000, true)
	chunks := Split(Page{Content: content}, 0, 0)
	checkChunks(t, "defaults", content, chunks, DefaultChunkSize, DefaultChunkOverlap)
	for i := 1; i < len(chunks); i++ {
		if overlapOf(chunks[i-1].Text, chunks[i].Text) == 0 {
			t.Errorf("chunk %d has no overlap with defaults", i)
		}
	}
	if !slices.Equal(chunks, Split(Page{Content: content}, 0, 0)) {
		t.Error("Split is not deterministic")
	}
}

// checkChunks checks the invariants of Split: ordinals count up; no chunk is longer than size
// unless it is one word; every chunk is whole words of the content; and the chunks, less their
// overlaps (at most overlap characters), give back every word of the content in order.
func checkChunks(t *testing.T, name, content string, chunks []Chunk, size, overlap int) {
	t.Helper()
	overlap = max(min(overlap, size/2), 0)
	var words []string
	for i, c := range chunks {
		if c.Ordinal != i {
			t.Errorf("%s: chunk %d has ordinal %d", name, i, c.Ordinal)
		}
		fields := strings.Fields(c.Text)
		if n := utf8.RuneCountInString(c.Text); n > size && len(fields) > 1 {
			t.Errorf("%s: chunk %d has %d characters, more than %d", name, i, n, size)
		}
		if c.Text != strings.TrimSpace(c.Text) || len(fields) == 0 {
			t.Errorf("%s: chunk %d is %q", name, i, c.Text)
		}
		skip := 0
		if i > 0 {
			skip = overlapOf(chunks[i-1].Text, c.Text)
			if n := utf8.RuneCountInString(strings.Join(fields[:skip], " ")); n > overlap {
				t.Errorf("%s: chunk %d overlaps %d characters, more than %d", name, i, n, overlap)
			}
			if skip == len(fields) {
				t.Errorf("%s: chunk %d adds nothing to chunk %d", name, i, i-1)
			}
		}
		words = append(words, fields[skip:]...)
	}
	if want := strings.Fields(content); !slices.Equal(words, want) {
		t.Errorf("%s: chunks hold %d words, the content %d, or in another order", name, len(words), len(want))
	}
}

// overlapOf returns how many leading words of b are the trailing words of a: the largest such
// count that is less than b's words.
func overlapOf(a, b string) int {
	aw, bw := strings.Fields(a), strings.Fields(b)
	for n := min(len(aw), len(bw)-1); n > 0; n-- {
		if slices.Equal(aw[len(aw)-n:], bw[:n]) {
			return n
		}
	}
	return 0
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// randomText returns about n characters of sentences, lines and paragraphs of varied words;
// numbered words are all distinct.
func randomText(r *rand.Rand, n int, numbered bool) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		w := vocabulary[r.IntN(len(vocabulary))]
		if numbered {
			w += strconv.Itoa(i)
		}
		switch x := r.IntN(100); {
		case b.Len() == 0:
		case x < 2:
			b.WriteString(".\n\n")
		case x < 5:
			b.WriteString(".\n")
		case x < 12:
			b.WriteString(". ")
		case x < 15:
			b.WriteString(", ")
		default:
			b.WriteString(" ")
		}
		b.WriteString(w)
	}
	b.WriteString(".")
	return b.String()
}

// vocabulary is a word list for generated pages, in English, Portuguese and Spanish.
var vocabulary = strings.Fields(`
bread cake coffee delivery order shipping return refund payment card cash invoice store shop
opening hours monday tuesday wednesday thursday friday saturday sunday holiday price discount
voucher gift wrapping size colour color fabric cotton leather shoe shoes jacket dress shirt
table chair sofa lamp garden kitchen bathroom bedroom room booking reservation table guest
menu lunch dinner breakfast vegan gluten allergy ingredient recipe fresh organic local farm
warranty repair service appointment consultation doctor dentist clinic treatment insurance
account password login email phone address street city porto lisbon madrid barcelona
pão bolo café entrega encomenda envio devolução reembolso pagamento cartão fatura loja
horário segunda terça quarta quinta sexta sábado domingo feriado preço desconto tamanho
cor tecido algodão couro sapato casaco vestido camisa mesa cadeira jardim cozinha quarto
reserva almoço jantar pequeno-almoço alergia ingrediente receita fresco garantia reparação
pan pastel pedido envío devolución reembolso pago tarjeta factura tienda horario lunes
martes miércoles jueves viernes sábado domingo precio descuento talla color tela algodón
zapato chaqueta vestido camisa mesa silla jardín cocina habitación reserva almuerzo cena
desayuno alergia ingrediente receta fresco garantía reparación cita seguro cuenta correo
quickly carefully always never usually within days weeks minutes free express standard
international national europe spain portugal brazil mexico available unavailable stock
`)
