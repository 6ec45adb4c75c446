package httpapi

// The response pieces several features share are in adapters/apijson, with the bodies the MCP
// tools give too.
