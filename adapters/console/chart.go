package console

import (
	"github.com/svcagent/svc/domain/ledger"
)

// The overview's per-day chart is drawn on the server as an SVG of bars (no script, no inline
// style: the bars' sizes are SVG attributes), with the same numbers in a table for screen
// readers and keyboards.

// Chart geometry, in the SVG's own units: a slot per day of a 31-day month, bars with a gap.
const (
	chartWidth  = 620
	chartHeight = 150
	chartTop    = 10 // room above the tallest bar
	chartBottom = 20 // room for the day numbers
	chartSlot   = chartWidth / 31
	chartBar    = chartSlot - 6
)

// chartBar is one day's bar.
type dayBar struct {
	X, Y, W, H   int
	LabelX       int
	Date         string // 2006-01-02
	Day          int    // of the month
	Interactions int
	Labelled     bool // the day's number is written under the axis
}

// dayChart is what overview.html draws.
type dayChart struct {
	Width, Height, Base int
	Bars                []dayBar
	Total, Peak         int
	PeakDate            string
}

func chartOf(days []ledger.Day) dayChart {
	c := dayChart{Width: chartWidth, Height: chartHeight, Base: chartHeight - chartBottom}
	for _, d := range days {
		c.Total += d.Interactions
		if d.Interactions > c.Peak {
			c.Peak, c.PeakDate = d.Interactions, d.Date.Format("2006-01-02")
		}
	}
	room := c.Base - chartTop
	for i, d := range days {
		h := 0
		if c.Peak > 0 {
			h = d.Interactions * room / c.Peak
			if d.Interactions > 0 {
				h = max(h, 2) // a day with any use shows
			}
		}
		x := i*chartSlot + (chartSlot-chartBar)/2
		c.Bars = append(c.Bars, dayBar{X: x, Y: c.Base - h, W: chartBar, H: h, LabelX: x + chartBar/2,
			Date: d.Date.Format("2006-01-02"), Day: d.Date.Day(), Interactions: d.Interactions,
			Labelled: d.Date.Day() == 1 || d.Date.Day()%5 == 0})
	}
	if c.PeakDate == "" && len(days) > 0 {
		c.PeakDate = days[0].Date.Format("2006-01-02")
	}
	return c
}
