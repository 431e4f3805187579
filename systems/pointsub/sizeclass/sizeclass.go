package sizeclass

// Class is a message size class.
type Class int

// The size classes, smallest first.
const (
	Tiny   Class = iota // < 1 KiB
	Small               // < 16 KiB
	Medium              // < 128 KiB
	Large               // < 1 MiB
	Huge                // >= 1 MiB
)

var (
	limits = [...]int{1 << 10, 16 << 10, 128 << 10, 1 << 20}
	chunks = [...]int{512, 4 << 10, 16 << 10, 64 << 10, 256 << 10}
	names  = [...]string{"tiny", "small", "medium", "large", "huge"}
)

// Of returns the class of a message of n bytes.
func Of(n int) Class {
	for i, limit := range limits {
		if n < limit {
			return Class(i)
		}
	}
	return Huge
}

// ChunkSize returns the chunk size used for messages of the class.
func (c Class) ChunkSize() int { return chunks[c] }

// String returns the class name.
func (c Class) String() string { return names[c] }
