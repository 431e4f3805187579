// Package transport sends and receives whole messages over a byte stream (a pointsub
// connection, a TCP connection, any io.ReadWriter) using the frame package's headers.
//
// A message longer than its chunk size is split into frames marked Fragmented, the last one
// also LastFrame; the chunk size is fixed by Options.ChunkSize or chosen from the message's
// size class. Every frame carries a CRC-32C of its payload, verified on receipt; the maximum
// message size is enforced on both sides; large messages report progress frame by frame.
//
// A receive error is either recoverable (the stream is still in step: a checksum mismatch, an
// over-size or compressed message, whose frames were all consumed) or fatal (a bad header or
// an I/O error: close the connection). Recoverable tells them apart.
package transport
