package httpapi

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/svcagent/svc/ports"
)

// Metrics holds the Prometheus collectors of the process.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// Collectors are more metrics of the process for the registry (such as the rate limiter's
// fallback counts in production).
type Collectors []prometheus.Collector

// NewMetrics registers the request metrics, the queue depth and the outbox backlog (read when
// scraped), the Go runtime collectors and extra on a registry of its own.
func NewMetrics(q ports.Queue, o ports.Outbox, extra Collectors) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_http_requests_total", Help: "HTTP requests by method, route and status.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "svc_http_request_duration_seconds",
			Help:    "HTTP request latency by method and route.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 40},
		}, []string{"method", "route"}),
	}
	read := func(f func(context.Context) (int, error)) func() float64 {
		return func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			n, err := f(ctx)
			if err != nil {
				return math.NaN()
			}
			return float64(n)
		}
	}
	m.reg.MustRegister(
		m.requests, m.duration,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "svc_queue_depth", Help: "Messages waiting in the queue or being retried."}, read(q.Depth)),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "svc_outbox_backlog", Help: "Outbox messages not yet confirmed done."}, read(o.Backlog)),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	m.reg.MustRegister(extra...)
	return m
}

func (m *Metrics) observe(method, route string, status int, d time.Duration) {
	m.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(method, route).Observe(d.Seconds())
}

// Handler serves the metrics in the Prometheus text format. It is not a route of the API: the
// program serves it on a listener of its own (SVC_METRICS_ADDR), never exposed with the API.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
