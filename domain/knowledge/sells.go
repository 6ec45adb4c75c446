package knowledge

import "regexp"

// A customer who asks how to sell the business their things ("como faço pra vender minhas
// roupas", "can I sell my old bike?", "quiero vender mis libros") asks what the business buys:
// its pages say it by their own verb ("Compramos e recebemos em consignação roupas…", "We buy
// used bikes"), not by the customer's. Such a question is searched with the business's buying
// verb besides its own words.

// customerSells matches, per language, a question (folded as NormalizeQuestion writes it) whose
// selling verb has the customer as its subject: after a first-person modal or a purpose ("can i
// sell", "i want to sell", "posso vender", "como faco pra vender", "quiero vender"), or before a
// first-person possessive ("sell my", "vender minhas", "vendo mi").
var customerSells = map[string]*regexp.Regexp{
	"en": regexp.MustCompile(`\b(?:(?:can|could|may) (?:i|we)|(?:i|we) (?:want|would like|d like|need|wanna)(?: to)?|how (?:do|can) (?:i|we)|where (?:do|can) (?:i|we)) sell\b|\bsell(?:ing)? (?:you )?(?:my|our)\b`),
	"pt": regexp.MustCompile(`\b(?:posso|podemos|quero|queria|queremos|gostaria de|como faco (?:pra|para)|como (?:eu )?faco pra|da pra|da para|tem como) vender\b|\bvend(?:er|o) (?:a |as |o |os )?(?:minha|minhas|meu|meus|nossa|nossas|nosso|nossos)\b`),
	"es": regexp.MustCompile(`\b(?:puedo|podemos|quiero|queria|quisiera|queremos|como hago (?:para|pa)|se puede) vender\b|\bvend(?:er|o) (?:mi|mis|nuestro|nuestra|nuestros|nuestras)\b`),
}

// sellNegated matches a selling verb after a negation ("e se não vender minha roupa?", "what if
// it doesn't sell"): the customer's thing left unsold by the business, which is no offer to sell.
var sellNegated = regexp.MustCompile(`\b(?:not|dont|doesnt|didnt|wont|nao|no) (?:sell|vender|vendo|vende)\b`)

// businessBuys is the verb by which a business says, per language, that it buys.
var businessBuys = map[string]string{"en": "buy", "pt": "compramos", "es": "compramos"}

// withBuying returns the query with the business's buying verb added (businessBuys) when the
// customer asks to sell (customerSells, not after a negation: sellNegated), and ok true; else ok
// false.
func withBuying(q *query) (string, bool) {
	if re, ok := customerSells[q.lang]; ok && re.MatchString(q.norm) && !sellNegated.MatchString(q.norm) {
		return q.text + " " + businessBuys[q.lang], true
	}
	return "", false
}
