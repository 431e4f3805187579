package sizeclass

import "testing"

func TestClassesAndChunks(t *testing.T) {
	for _, tc := range []struct {
		n     int
		class Class
		chunk int
	}{
		{0, Tiny, 512}, {1023, Tiny, 512}, {1024, Small, 4096}, {16<<10 - 1, Small, 4096},
		{16 << 10, Medium, 16 << 10}, {128 << 10, Large, 64 << 10}, {1 << 20, Huge, 256 << 10},
		{10 << 20, Huge, 256 << 10},
	} {
		if c := Of(tc.n); c != tc.class || c.ChunkSize() != tc.chunk {
			t.Errorf("Of(%d) = %v/%d, want %v/%d", tc.n, c, c.ChunkSize(), tc.class, tc.chunk)
		}
	}
	if Huge.String() != "huge" {
		t.Fatal(Huge.String())
	}
}
