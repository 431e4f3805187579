// Package frame encodes and decodes the headers of pointsub's framed message transport.
//
// Two header layouts share one stream; the first byte tells them apart:
//
//	full, 12 bytes:   size u32 BE | CRC32 u32 BE | flags u32 BE   (first byte is 0: size < 16 MiB)
//	compact, 4 bytes: flags u8 (Compact set) | CRC32 low byte u8 | size u16 BE   (payload < 64 KiB)
//
// The checksum is CRC-32C (Castagnoli) of the payload. A compact header keeps only its low 8
// bits, so a corrupted compact frame escapes detection with probability about 1/256; use full
// headers where corruption matters. A header that breaks any rule (unknown flag bits, a size
// over the limit, an Empty flag on a non-empty payload, LastFrame without Fragmented) is
// reported as ErrBadHeader: the reader has lost its place in the stream and must close it.
package frame
