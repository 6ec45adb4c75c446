// Package apijson is the JSON of the service's interface that more than one driving adapter
// speaks: the bodies the REST routes answer (and the MCP tools give as their structured
// results), the error envelope's object, and the strict reading of a JSON request body or of a
// tool's arguments. httpapi and mcpserver both import it, so that a tool's result is the REST
// route's body and a tool's argument error the REST route's error, from one piece of code. It
// imports no other adapter.
package apijson
