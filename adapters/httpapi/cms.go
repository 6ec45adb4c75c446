package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/app/plugins"
	"github.com/svcagent/svc/domain/plugin"
)

// The site plugin protocol's server-to-server calls (spec 4.9): POST /cms/exchange,
// POST /cms/sync and POST /cms/sale. The plugin token travels in the body's token field; a
// failed authentication is throttled per client address like a failed key.

// exchangeIn is the body of POST /cms/exchange.
type exchangeIn struct {
	Code string `json:"code"`
	Site string `json:"site"`
}

type exchangeJSON struct {
	Object      string `json:"object"`
	Token       string `json:"token"`
	Name        string `json:"name"`
	WidgetToken string `json:"widget_token"`
	SiteID      string `json:"site_id"`
	Site        string `json:"site"`
}

func (s *Server) cmsExchange(c *gin.Context) {
	var body exchangeIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	out, err := s.uc.Plugins.Exchange(c.Request.Context(), body.Code, body.Site)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, exchangeJSON{Object: "plugin_exchange", Token: out.Token, Name: out.Name,
		WidgetToken: out.WidgetToken, SiteID: out.Connection.ID, Site: out.Connection.Site})
}

// syncIn is the body of POST /cms/sync.
type syncIn struct {
	Token    string         `json:"token"`
	SiteURL  string         `json:"site_url"`
	Platform string         `json:"platform"`
	Pages    []syncItemJSON `json:"pages"`
}

type syncItemJSON struct {
	Type     string           `json:"type"`
	Title    string           `json:"title"`
	URL      string           `json:"url"`
	Content  string           `json:"content"`
	Price    string           `json:"price"`
	Currency string           `json:"currency"`
	Stock    *int             `json:"stock"`
	CartID   string           `json:"cart_id"`
	Options  []syncOptionJSON `json:"options"`
}

type syncOptionJSON struct {
	Name   string `json:"name"`
	Price  string `json:"price"`
	Stock  *int   `json:"stock"`
	CartID string `json:"cart_id"`
}

type syncJSON struct {
	Object   string `json:"object"`
	Pages    int    `json:"pages"`
	Posts    int    `json:"posts"`
	Products int    `json:"products"`
	Chars    int    `json:"chars"`
	Chunks   int    `json:"chunks"`
	Version  int64  `json:"version"`
}

// pluginBody is the body of a call that carries the plugin token.
type pluginBody interface{ pluginToken() string }

func (b *syncIn) pluginToken() string { return b.Token }
func (b *saleIn) pluginToken() string { return b.Token }

// plugin reads a plugin call's body strictly, authenticates its token (401, throttled when
// wrong) and counts the call against the connection's limit.
func (s *Server) plugin(c *gin.Context, body pluginBody) (plugins.Caller, bool) {
	if err := decodeJSON(c, body); err != nil {
		s.fail(c, err)
		return plugins.Caller{}, false
	}
	caller, err := s.uc.Plugins.Authenticate(c.Request.Context(), body.pluginToken())
	if err != nil {
		s.refuse(c, err)
		return plugins.Caller{}, false
	}
	if !s.limit(c, caller.Account.Plan, caller.Connection.ID, plugins.Limit) {
		return plugins.Caller{}, false
	}
	return caller, true
}

func (s *Server) cmsSync(c *gin.Context) {
	var body syncIn
	caller, ok := s.plugin(c, &body)
	if !ok {
		return
	}
	in := plugins.SyncInput{SiteURL: body.SiteURL, Platform: body.Platform}
	if body.Pages != nil {
		in.Items = make([]plugin.Item, len(body.Pages))
		for i, p := range body.Pages {
			it := plugin.Item{Type: p.Type, Title: p.Title, URL: p.URL, Content: p.Content, Price: p.Price,
				Currency: p.Currency, Stock: p.Stock, CartID: p.CartID}
			if p.Options != nil {
				it.Options = make([]plugin.Option, len(p.Options))
				for j, o := range p.Options {
					it.Options[j] = plugin.Option(o)
				}
			}
			in.Items[i] = it
		}
	}
	out, err := s.uc.Plugins.Sync(c.Request.Context(), caller, in)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, syncJSON{Object: "plugin_sync", Pages: out.Counts.Pages, Posts: out.Counts.Posts,
		Products: out.Counts.Products, Chars: out.Counts.Chars, Chunks: out.Chunks, Version: out.Version})
}

// saleIn is the body of POST /cms/sale: no payment data, no address (unknown fields are refused).
type saleIn struct {
	Token     string         `json:"token"`
	VisitorID string         `json:"visitor_id"`
	OrderID   int64          `json:"order_id"`
	OrderName string         `json:"order_name"`
	Total     string         `json:"total"`
	Currency  string         `json:"currency"`
	Items     []saleItemJSON `json:"items"`
}

type saleItemJSON struct {
	Name string `json:"name"`
	Qty  int    `json:"qty"`
}

type saleJSON struct {
	Object         string  `json:"object"`
	ConversionID   string  `json:"conversion_id"`
	ConversationID *string `json:"conversation_id"`
	Duplicate      bool    `json:"duplicate"`
}

func (s *Server) cmsSale(c *gin.Context) {
	var body saleIn
	caller, ok := s.plugin(c, &body)
	if !ok {
		return
	}
	sale := plugin.Sale{VisitorID: body.VisitorID, OrderID: body.OrderID, OrderName: body.OrderName, Total: body.Total,
		Currency: body.Currency}
	for _, it := range body.Items {
		sale.Items = append(sale.Items, plugin.SaleItem(it))
	}
	out, err := s.uc.Plugins.Sale(c.Request.Context(), caller, sale)
	if err != nil {
		s.fail(c, err)
		return
	}
	res := saleJSON{Object: "plugin_sale", ConversionID: out.ConversionID, Duplicate: out.Duplicate}
	if out.ConversationID != "" {
		res.ConversationID = &out.ConversationID
	}
	status := http.StatusCreated
	if out.Duplicate {
		status = http.StatusOK
	}
	c.JSON(status, res)
}
