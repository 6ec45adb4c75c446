// Package netconn holds what the clients of long-lived connections (the Postgres pool, the model
// upstream's HTTP/1.1 connections) share: whether an idle connection is still open.
package netconn
