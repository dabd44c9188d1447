package fbe

// The default limits of every reader (docs/limits.md): the same numbers in every language.
const (
	MaxDepth     = 128      // deepest struct nesting a reader accepts and a writer writes (the root is level 1)
	BudgetFactor = 8        // a decode may materialize this many bytes per input byte...
	BudgetSlack  = 4096     // ... plus this many
	MaxFrameSize = 64 << 20 // the largest protocol frame a Receiver accepts (64 MiB)
)

// Limits are the options of one reader (docs/limits.md, section 5). The zero
// value is not usable; start from DefaultLimits.
type Limits struct {
	MaxDepth     int
	BudgetFactor int
	BudgetSlack  int
	MaxFrameSize int
}

// DefaultLimits are the limits of docs/limits.md.
var DefaultLimits = Limits{MaxDepth: MaxDepth, BudgetFactor: BudgetFactor, BudgetSlack: BudgetSlack, MaxFrameSize: MaxFrameSize}

// Budget is the decode budget in bytes of an input of inputSize bytes.
func (l Limits) Budget(inputSize int) int {
	return l.BudgetFactor*inputSize + l.BudgetSlack
}
