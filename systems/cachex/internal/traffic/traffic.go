package traffic

import (
	"math/rand/v2"
	"strconv"
)

// Tier is one band of the traffic mix.
type Tier struct {
	// Permille is the tier's share of requests, in thousandths.
	Permille int
	// First and Count select products First..First+Count-1.
	First, Count int
}

// Tiers is the mix of existing products; the remaining 10 ‰ go to missing ids.
var Tiers = []Tier{
	{Permille: 800, First: 1, Count: 20},
	{Permille: 150, First: 21, Count: 180},
	{Permille: 40, First: 201, Count: 800},
}

// MissingIDs is how many distinct non-existent ids the 1 % draws from.
const MissingIDs = 50

// Picker draws ids; each worker owns one (it is not safe for concurrent use).
type Picker struct {
	rng     *rand.Rand
	ids     []string // ids[i] = "product-(i+1)" for the products the tiers reach
	missing []string
}

// NewPicker returns a Picker with its own deterministic random stream.
func NewPicker(seed uint64) *Picker {
	last := Tiers[len(Tiers)-1]
	p := &Picker{rng: rand.New(rand.NewPCG(seed, 0x5eed)), ids: make([]string, last.First+last.Count-1)}
	for i := range p.ids {
		p.ids[i] = "product-" + strconv.Itoa(i+1)
	}
	for i := range MissingIDs {
		p.missing = append(p.missing, "product-missing-"+strconv.Itoa(i))
	}
	return p
}

// Next returns the id of the next request.
func (p *Picker) Next() string {
	r := p.rng.IntN(1000)
	for _, t := range Tiers {
		if r < t.Permille {
			return p.ids[t.First-1+p.rng.IntN(t.Count)]
		}
		r -= t.Permille
	}
	return p.missing[p.rng.IntN(len(p.missing))]
}
