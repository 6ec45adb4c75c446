package local

import (
	"fmt"
	"strings"
	"testing"

	"github.com/svcagent/svc/domain/knowledge"
)

// TestIrregularVerbsMeet checks, with the Snowball stemmers, that a question holding a verb in
// one form finds the Brain's sentence holding it in another (an irregular past), before a
// sentence sharing the question's other words only.
func TestIrregularVerbsMeet(t *testing.T) {
	for _, c := range []struct {
		page, question, want string
	}{
		{
			"Pago\n\nLos paquetes se pagan por adelantado. Los paquetes de clases duran un año.",
			"los paquetes se pagan por adelantado o cuestan mas?", "se pagan por adelantado",
		},
		{
			"Security\n\nIf you lose your phone, sign in with a backup code. A new phone signs in with the app.",
			"i lost my phone, how do i sign in?", "If you lose your phone",
		},
		{
			"Returns\n\nItems bought in the final sale cannot be returned. Items in the final sale are marked in red.",
			"can i return items i buy in the final sale?", "bought in the final sale",
		},
		{
			"Booking\n\nA date can be held for 7 days without charge. The date of the wedding needs a deposit.",
			"can you hold the date of the wedding without charge?", "can be held",
		},
		{
			"Safety\n\nWe do not accept dogs that have shown aggression. Dogs with aggression toward people need a behaviourist.",
			"my dog shows aggression, do you accept him?", "have shown aggression",
		},
		{
			"Pedidos\n\nSi un libro no lo tenemos, te lo pedimos sin coste. Los libros que tenemos se envían sin coste.",
			"si no tienen un libro me lo piden sin coste?", "te lo pedimos",
		},
		{
			"Devoluciones\n\nLos muebles a medida no se pueden devolver. Los muebles a medida tardan seis semanas.",
			"me devuelven un mueble a medida?", "no se pueden devolver",
		},
		{
			"Armários\n\nTraga o seu cadeado para o armário. O armário da recepção tem cadeado próprio.",
			"preciso trazer cadeado para o armário?", "Traga o seu cadeado",
		},
		{
			"Faltas\n\nSe perder uma aula, pode vê-la gravada. Uma aula de reposição custa 10 euros.",
			"e se eu perco uma aula?", "Se perder uma aula",
		},
		{
			"Exames\n\nPedimos que traga os seus exames de imagem. Os exames de imagem são pedidos pelo médico.",
			"tenho de trazer os exames de imagem?", "traga os seus exames",
		},
	} {
		ix := knowledge.NewIndex(docsOf(c.page), nil, NewStemmer(), nil)
		hits := ix.Search(c.question, nil, 3)
		if len(hits) == 0 || !strings.Contains(hits[0].Sentence, c.want) {
			got := ""
			if len(hits) > 0 {
				got = hits[0].Sentence
			}
			t.Errorf("%q: first sentence %q, want one with %q", c.question, got, c.want)
		}
	}
}

// docsOf splits a page into the index's documents, without vectors.
func docsOf(page string) []knowledge.Doc {
	var docs []knowledge.Doc
	title, content, _ := strings.Cut(page, "\n\n")
	for _, c := range knowledge.Split(knowledge.Page{URL: "https://brain.example/" + title, Title: title, Content: content}, 0, 0) {
		c.ID = fmt.Sprintf("c%d", c.Ordinal)
		docs = append(docs, knowledge.Doc{Chunk: c})
	}
	return docs
}
