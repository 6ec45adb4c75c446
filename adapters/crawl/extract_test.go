package crawl

import (
	"context"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/svcagent/svc/domain/knowledge"
)

// layout wraps a page's content in a small business site's layout: a cookie banner, a header
// with the logo and a menu, and a footer with the contact and hours.
func layout(main string) string {
	return `<!doctype html><html><head><title>Home | Oak Street Dental</title></head><body>` +
		`<div id="cookie-banner" class="cookie-consent"><p>We use cookies to improve your experience on our website.</p><button>Accept</button></div>` +
		`<header class="site-header"><a class="logo" href="/">Oak Street Dental</a><nav><ul><li><a href="/">Home</a></li>` +
		`<li><a href="/hours">Opening hours</a></li><li><a href="/services">Services and prices</a></li></ul></nav></header>` +
		main +
		`<footer><h4>Contact us</h4><p>Phone: <a href="tel:5552014400">(555) 201-4400</a></p><p>Address: 42 Oak Street, Springfield</p>` +
		`<p>Mon–Fri 8am–6pm</p><p>© 2026 Oak Street Dental. All rights reserved. <a href="/privacy">Privacy policy</a></p></footer></body></html>`
}

func TestFallbackText(t *testing.T) {
	for _, tc := range []struct {
		name string
		page string
		want string
	}{
		{
			"a home page: the site's chrome and the menu of links left out",
			layout(`<main><h1>Oak Street Dental</h1><p>Family dental practice in Springfield.</p>` +
				`<ul><li><a href="/hours">Opening hours</a></li><li><a href="/services">Services and prices</a></li></ul></main>`),
			"Oak Street Dental\nFamily dental practice in Springfield.",
		},
		{
			"no <main>: the body without the chrome",
			layout(`<div class="content"><h1>Prices</h1><table><tr><td>Cleaning</td><td>$90</td></tr></table></div>`),
			"Prices\nCleaning\n$90",
		},
		{
			"role attributes and a menu without <nav>",
			`<body><div role="banner"><a href="/">Logo</a></div><div role="navigation"><a href="/a">A</a></div>` +
				`<div class="menu"><a href="/a">Shipping</a> | <a href="/b">Returns</a></div>` +
				`<div><p>Returns are free within <a href="/returns">30 days</a>.</p></div>` +
				`<div role="contentinfo">© 2026</div><div class="gdpr-notice">We use cookies.</div></body>`,
			"Returns are free within 30 days.",
		},
		{
			"a site of <div>s named by their class",
			`<body><div class="site-header"><a class="logo" href="/">Harbour View Hotel</a><div class="main-menu"><a href="/rooms">Rooms</a></div></div>` +
				`<div id="content"><div class="content-header"><h1>Harbour View Hotel</h1></div><p>A small hotel on the marina.</p></div>` +
				`<div class="site-footer"><p>Address: 7 Marine Parade</p><p>Reception open 24 hours</p></div><div id="colophon">© 2026</div></body>`,
			"Harbour View Hotel\nA small hotel on the marina.",
		},
		{
			"a restaurant's menu of dishes is content",
			`<body><nav><a href="/">Home</a></nav><div class="food-menu"><h2>Pizzas</h2><div class="menu-item">Margherita $13</div>` +
				`<div class="menu-item">Diavola $16</div></div><footer>© 2026</footer></body>`,
			"Pizzas\nMargherita $13\nDiavola $16",
		},
		{
			"<main>'s own header is content",
			`<body><div class="site-header">Logo</div><main><div class="page-header"><h1>Rentals</h1></div><header><p>Bikes by the day</p></header>` +
				`<p>City bikes cost $25 a day.</p></main></body>`,
			"Rentals\nBikes by the day\nCity bikes cost $25 a day.",
		},
		{
			"an article's own header and footer are content",
			`<body><nav><a href="/">Home</a></nav><article><header><h1>Rentals</h1><p>Bikes by the day</p></header>` +
				`<p>City bikes cost $25 a day.</p><footer><p>Helmet included.</p></footer></article><footer>© 2026</footer></body>`,
			"Rentals\nBikes by the day\nCity bikes cost $25 a day.\nHelmet included.",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := html.Parse(strings.NewReader(tc.page))
			if err != nil {
				t.Fatal(err)
			}
			if got := fallbackText(doc); got != tc.want {
				t.Errorf("fallbackText = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestExtractLeavesOutChrome(t *testing.T) {
	// Readability finds too little in a home page; the fallback must not make the menu, the
	// cookie banner and the footer the page's text.
	page := layout(`<main><h1>Oak Street Dental</h1><p>` + prose("our family practice", 120) + `</p>` +
		`<ul><li><a href="/hours">Opening hours</a></li><li><a href="/services">Services and prices</a></li></ul></main>`)
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("http://shop.test/")
	d := extract(doc, u, 200)
	for _, chrome := range []string{"cookies", "Home", "Services and prices", "All rights reserved", "Address:"} {
		if strings.Contains(d.text, chrome) {
			t.Errorf("text holds %q: %q", chrome, d.text)
		}
	}
	if !strings.Contains(d.text, "our family practice") {
		t.Errorf("text %q lacks the page's own", d.text)
	}
	if len(d.links) < 3 {
		t.Errorf("links %v, want the menu's", d.links)
	}
}

func TestHubPageLinksFollowed(t *testing.T) {
	// A home page of a title and links only has too little text to keep, but the site's pages
	// are found through it.
	s := newSite(t, func(*site) map[string]route {
		return map[string]route{
			"/":         html200(layout(`<main><h1>Oak Street Dental</h1><ul><li><a href="/hours">Opening hours</a></li><li><a href="/services">Services and prices</a></li></ul></main>`)),
			"/hours":    html200(page("Opening hours", "opening hours")),
			"/services": html200(page("Services and prices", "our prices")),
		}
	})
	res, err := newCrawler(t, true).Crawl(context.Background(), knowledge.CrawlRequest{URL: s.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(t, s.URL, res.Pages), []string{"/hours", "/services"}; !reflect.DeepEqual(got, want) {
		t.Errorf("pages %v, want %v; skipped %v", got, want, res.Skipped)
	}
}

func TestTrimSiteName(t *testing.T) {
	for _, tc := range []struct {
		name      string
		titles    []string // what the pages' titles are (readability's)
		docTitles []string // their <title>s as written; the titles when nil
		want      []string
	}{
		{"a suffix on every page", []string{"Oak Street Dental | Oak Street Dental", "Opening hours | Oak Street Dental", "Services – prices | Oak Street Dental"}, nil,
			[]string{"Oak Street Dental", "Opening hours", "Services – prices"}},
		{"a prefix on half of them", []string{"Northwind - Shipping", "Northwind - Returns", "Size guide", "About us"}, nil,
			[]string{"Shipping", "Returns", "Size guide", "About us"}},
		{"separators not shared are kept", []string{"Check-in - check-out times", "Rooms | rates", "Location"}, nil,
			[]string{"Check-in - check-out times", "Rooms | rates", "Location"}},
		{"one page", []string{"Shipping | Northwind"}, nil, []string{"Shipping | Northwind"}},
		{"shared by fewer than half", []string{"A | X", "B | X", "C", "D", "E"}, nil, []string{"A | X", "B | X", "C", "D", "E"}},
		// Readability took the name off two titles of four and left it on one: the <title>s
		// still share it.
		{"left by readability on one title", []string{"Foundry Commons", "Memberships and day passes | Foundry Commons", "Meeting rooms and event space", "Hours, location and house rules"},
			[]string{"Foundry Commons", "Memberships and day passes | Foundry Commons", "Meeting rooms and event space | Foundry Commons", "Hours, location and house rules | Foundry Commons"},
			[]string{"Foundry Commons", "Memberships and day passes", "Meeting rooms and event space", "Hours, location and house rules"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pages := make([]knowledge.Page, len(tc.titles))
			for i, ti := range tc.titles {
				pages[i].Title = ti
			}
			docTitles := tc.docTitles
			if docTitles == nil {
				docTitles = tc.titles
			}
			trimSiteName(pages, docTitles)
			var got []string
			for _, p := range pages {
				got = append(got, p.Title)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("titles %q, want %q", got, tc.want)
			}
		})
	}
}

func TestReadableWithoutLinkLines(t *testing.T) {
	// Readability keeps a home page's introduction with its list of the site's pages; each link
	// alone on its line would be a passage of its own. A link within a sentence stays.
	for _, tc := range []struct {
		name    string
		main    string
		want    []string
		wantNot []string
	}{
		{
			"a menu of the site's pages under the introduction",
			`<article><h1>Rodando CDMX</h1><p>` + prose("bike rentals and guided tours in Mexico City", 300) + `</p>` +
				`<ul><li><a href="/renta">Renta de bicis y scooters</a></li><li><a href="/tours">Recorridos guiados en bici</a></li></ul></article>`,
			[]string{"guided tours in Mexico City"},
			[]string{"Renta de bicis y scooters", "Recorridos guiados en bici"},
		},
		{
			"a link within a sentence",
			`<article><h1>Returns</h1><p>` + prose("returns", 300) + ` Print the <a href="/label">prepaid label</a> from your account.</p></article>`,
			[]string{"Print the prepaid label from your account."},
			nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := html.Parse(strings.NewReader(`<html><head><title>Page</title></head><body>` + tc.main + `</body></html>`))
			if err != nil {
				t.Fatal(err)
			}
			_, text := readable(doc, &url.URL{Scheme: "http", Host: "shop.test", Path: "/"})
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("text lacks %q: %q", w, text)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(text, w) {
					t.Errorf("text holds the link line %q: %q", w, text)
				}
			}
		})
	}
}
