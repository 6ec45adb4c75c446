package widget

import (
	"html"
	"strconv"
	"strings"

	"github.com/svcagent/svc/domain"
)

// Framework is a kind of site the snippet is written for (GET /v1/widget?framework=).
type Framework string

// The frameworks of spec 4.5.
const (
	HTML        Framework = "html"
	NextJSApp   Framework = "nextjs-app"
	NextJSPages Framework = "nextjs-pages"
	React       Framework = "react"
	Vue         Framework = "vue"
	Nuxt        Framework = "nuxt"
	Astro       Framework = "astro"
	Svelte      Framework = "svelte"
	Angular     Framework = "angular"
	CMS         Framework = "cms"
)

// Frameworks lists every framework, in the spec's order.
var Frameworks = []Framework{HTML, NextJSApp, NextJSPages, React, Vue, Nuxt, Astro, Svelte, Angular, CMS}

// ParseFramework checks a framework name; "" is html.
func ParseFramework(s string) (Framework, error) {
	if s == "" {
		return HTML, nil
	}
	for _, f := range Frameworks {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(Frameworks))
	for i, f := range Frameworks {
		names[i] = string(f)
	}
	return "", domain.Invalid("framework", "framework must be one of %s", strings.Join(names, ", "))
}

// File is where a framework's snippet goes, for the person who pastes it.
func (f Framework) File() string {
	switch f {
	case NextJSApp:
		return "app/layout.tsx"
	case NextJSPages:
		return "pages/_app.tsx"
	case React:
		return "src/SvcChat.tsx"
	case Vue:
		return "src/components/SvcChat.vue"
	case Nuxt:
		return "nuxt.config.ts"
	case Astro:
		return "src/layouts/Layout.astro"
	case Svelte:
		return "src/routes/+layout.svelte"
	case Angular:
		return "src/app/svc-chat.component.ts"
	}
	return "" // html and cms: the page's HTML, before </body>
}

// Snippet is what the script tag carries: the script's address and its data-* attributes.
type Snippet struct {
	ScriptURL string
	Token     string
	Lang      string // "" follows the page's language
	Position  string // "" follows the saved style
}

// attrs returns the data-* attributes in order, name and value.
func (s Snippet) attrs() [][2]string {
	out := [][2]string{{"data-token", s.Token}}
	if s.Lang != "" {
		out = append(out, [2]string{"data-lang", s.Lang})
	}
	if s.Position != "" {
		out = append(out, [2]string{"data-position", s.Position})
	}
	return out
}

// htmlAttrs renders the attributes as HTML (or JSX, Vue or Svelte template) attributes.
func (s Snippet) htmlAttrs() string {
	var b strings.Builder
	for _, a := range s.attrs() {
		b.WriteString(" " + a[0] + `="` + html.EscapeString(a[1]) + `"`)
	}
	return b.String()
}

// js quotes a string for JavaScript and TypeScript source ('"' quotes, \u escapes: valid JS).
func js(s string) string {
	q := strconv.QuoteToASCII(s)
	// Go's \x and \U escapes are not JavaScript's; QuoteToASCII only uses \x for bytes below
	// 0x20 and invalid UTF-8, which the values here (checked tokens, URLs) never hold.
	return strings.ReplaceAll(q, "</", `<\/`)
}

// setAttrs renders the statements that set the data-* attributes on the script element el.
func (s Snippet) setAttrs(indent, el string) string {
	var b strings.Builder
	for _, a := range s.attrs() {
		b.WriteString(indent + el + ".setAttribute(" + js(a[0]) + ", " + js(a[1]) + ");\n")
	}
	return b.String()
}

// Code returns the snippet for framework f, idiomatic for it: a script tag for HTML and
// content-management sites, Next.js's Script component, an effect that adds the script in React,
// Vue, Svelte and Angular (and removes it when the component goes), Nuxt's head configuration and
// an inline script tag in Astro.
func (s Snippet) Code(f Framework) string {
	src := s.ScriptURL
	switch f {
	case NextJSApp:
		return `import Script from "next/script";
import type { ReactNode } from "react";

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html>
      <body>
        {children}
        <Script src="` + html.EscapeString(src) + `"` + s.htmlAttrs() + ` strategy="afterInteractive" />
      </body>
    </html>
  );
}
`
	case NextJSPages:
		return `import type { AppProps } from "next/app";
import Script from "next/script";

export default function App({ Component, pageProps }: AppProps) {
  return (
    <>
      <Component {...pageProps} />
      <Script src="` + html.EscapeString(src) + `"` + s.htmlAttrs() + ` strategy="afterInteractive" />
    </>
  );
}
`
	case React:
		return `import { useEffect } from "react";

export function SvcChat() {
  useEffect(() => {
    const script = document.createElement("script");
    script.src = ` + js(src) + `;
    script.async = true;
` + s.setAttrs("    ", "script") + `    document.body.appendChild(script);
    return () => {
      script.remove();
    };
  }, []);
  return null;
}
`
	case Vue:
		return `<script setup lang="ts">
import { onMounted, onBeforeUnmount } from "vue";

let script: HTMLScriptElement | undefined;

onMounted(() => {
  script = document.createElement("script");
  script.src = ` + js(src) + `;
  script.async = true;
` + s.setAttrs("  ", "script") + `  document.body.appendChild(script);
});

onBeforeUnmount(() => {
  script?.remove();
});
</script>

<template>
  <span hidden></span>
</template>
`
	case Nuxt:
		var b strings.Builder
		b.WriteString(`export default defineNuxtConfig({
  app: {
    head: {
      script: [
        {
          src: ` + js(src) + `,
          async: true,
`)
		for _, a := range s.attrs() {
			b.WriteString("          " + js(a[0]) + ": " + js(a[1]) + ",\n")
		}
		b.WriteString(`        },
      ],
    },
  },
});
`)
		return b.String()
	case Astro:
		return `---
// Add the widget to every page that uses this layout, before </body>.
---
<html>
  <body>
    <slot />
    <script is:inline src="` + html.EscapeString(src) + `"` + s.htmlAttrs() + ` async></script>
  </body>
</html>
`
	case Svelte:
		return `<script lang="ts">
  import { onMount } from "svelte";

  onMount(() => {
    const script = document.createElement("script");
    script.src = ` + js(src) + `;
    script.async = true;
` + s.setAttrs("    ", "script") + `    document.body.appendChild(script);
    return () => script.remove();
  });
</script>

<slot />
`
	case Angular:
		return `import { Component, OnDestroy, OnInit, Renderer2, inject } from "@angular/core";
import { DOCUMENT } from "@angular/common";

@Component({
  selector: "app-svc-chat",
  standalone: true,
  template: "",
})
export class SvcChatComponent implements OnInit, OnDestroy {
  private readonly renderer = inject(Renderer2);
  private readonly document = inject(DOCUMENT);
  private script?: HTMLScriptElement;

  ngOnInit(): void {
    const script: HTMLScriptElement = this.renderer.createElement("script");
    script.src = ` + js(src) + `;
    script.async = true;
` + s.setAttrs("    ", "script") + `    this.renderer.appendChild(this.document.body, script);
    this.script = script;
  }

  ngOnDestroy(): void {
    this.script?.remove();
  }
}
`
	case CMS:
		return `<!-- svc chat: paste into your theme's footer (or a "header and footer scripts" setting), before </body> -->
<script src="` + html.EscapeString(src) + `"` + s.htmlAttrs() + ` async></script>
`
	}
	return `<script src="` + html.EscapeString(src) + `"` + s.htmlAttrs() + ` async></script>
`
}
