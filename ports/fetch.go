package ports

import (
	"context"

	"github.com/svcagent/svc/domain/knowledge"
)

//go:generate go tool mockgen -source=fetch.go -destination=mock/fetch.go -package=mock

// Crawler reads a public site. A site that cannot be read at all is a crawl_failed error naming
// the reason; pages it could not read are listed in the result's Skipped.
type Crawler interface {
	Crawl(ctx context.Context, req knowledge.CrawlRequest) (knowledge.CrawlResult, error)
}
