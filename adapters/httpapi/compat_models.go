package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/app/compat"
)

// GET /v1/models, GET /v1/models/{model}: the catalogue, in OpenAI's form, for the tools that
// list models before they use one.

type modelJSON struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

type modelListJSON struct {
	Object string      `json:"object"`
	Data   []modelJSON `json:"data"`
}

func modelOf(m compat.Listed) modelJSON {
	return modelJSON{ID: m.ID, Object: "model", Created: m.Created.Unix(), OwnedBy: "svc"}
}

func (s *Server) listModels(c *gin.Context) {
	out := modelListJSON{Object: "list"}
	for _, m := range compat.Catalogue() {
		out.Data = append(out.Data, modelOf(m))
	}
	c.JSON(http.StatusOK, out)
}

func (s *Server) getModel(c *gin.Context) {
	m, err := compat.Find(c.Param("model"))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, modelOf(m))
}
