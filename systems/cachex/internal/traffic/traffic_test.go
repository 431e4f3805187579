package traffic

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestMix(t *testing.T) {
	p := NewPicker(1)
	const n = 200_000
	var top, mid, tail, missing int
	for range n {
		id := p.Next()
		if strings.HasPrefix(id, "product-missing-") {
			missing++
			continue
		}
		i, err := strconv.Atoi(strings.TrimPrefix(id, "product-"))
		if err != nil {
			t.Fatalf("bad id %q", id)
		}
		switch {
		case i >= 1 && i <= 20:
			top++
		case i <= 200:
			mid++
		case i <= 1000:
			tail++
		default:
			t.Fatalf("id %q outside the traffic tiers", id)
		}
	}
	for _, c := range []struct {
		name string
		got  int
		want float64
	}{{"top 20", top, 0.80}, {"next 180", mid, 0.15}, {"next 800", tail, 0.04}, {"missing", missing, 0.01}} {
		share := float64(c.got) / n
		if math.Abs(share-c.want) > 0.01 {
			t.Errorf("%s: share %.4f, want %.2f", c.name, share, c.want)
		}
	}
}
