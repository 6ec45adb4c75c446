package httpapi

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"
)

// openAPISpec is the OpenAPI 3.1 description of every route; TestOpenAPIMatchesRoutes keeps the
// two equal.
//
//go:embed openapi.json
var openAPISpec []byte

func (s *Server) openAPI(c *gin.Context) {
	c.Data(http.StatusOK, "application/json", openAPISpec)
}
