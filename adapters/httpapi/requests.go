package httpapi

// The bodies of the requests decodeJSON reads strictly, named so that one test and one fuzz
// target go over each (the agent's are agentPatchJSON and appearancePatchJSON).

// chatIn is the body of POST /v1/chat.
type chatIn struct {
	Message        *string `json:"message"`
	ConversationID string  `json:"conversation_id"`
	CustomerName   string  `json:"customer_name"`
}

// clientChatIn is the body of POST /v1/client/chat.
type clientChatIn struct {
	Message *string `json:"message"`
}

// sessionIn is the body of POST /v1/sessions.
type sessionIn struct {
	ConversationID string `json:"conversation_id"`
	CustomerName   string `json:"customer_name"`
	TTLMinutes     *int   `json:"ttl_minutes"`
}

// pagesIn is the body of PUT /v1/knowledge/pages.
type pagesIn struct {
	Pages           []pageJSON `json:"pages"`
	BusinessSummary *string    `json:"business_summary"`
	SiteURL         *string    `json:"site_url"`
}

// faqIn is the body of POST /v1/knowledge/faq.
type faqIn struct {
	Items []struct {
		Question string `json:"question"`
		Answer   string `json:"answer"`
	} `json:"items"`
}

// crawlIn is the body of POST /v1/knowledge/crawl.
type crawlIn struct {
	URL      string `json:"url"`
	MaxPages *int   `json:"max_pages"`
}

// webhookIn is the body of POST /v1/webhooks.
type webhookIn struct {
	URL    *string  `json:"url"`
	Events []string `json:"events"`
}

// webhookPatchIn is the body of PATCH /v1/webhooks/{id}.
type webhookPatchIn struct {
	URL    *string   `json:"url"`
	Events *[]string `json:"events"`
	Active *bool     `json:"active"`
}

// conversionIn is the body of POST /v1/conversions.
type conversionIn struct {
	Kind           *string  `json:"kind"`
	Amount         *float64 `json:"amount"`
	Currency       string   `json:"currency"`
	Reference      string   `json:"reference"`
	ConversationID string   `json:"conversation_id"`
}
