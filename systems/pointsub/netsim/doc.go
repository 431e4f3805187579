// Package netsim applies a network condition (latency, jitter, loss, corruption, bandwidth)
// to the bytes written into a net.Conn, deterministically under a seed.
//
// Wrap conditions one direction: what the wrapped side writes. Wrap both ends of a connection
// to condition both directions (a round trip then pays the latency twice).
//
// The model, per segment of up to SegmentSize bytes written:
//
//   - bandwidth: segments leave one after another, each taking len/Bandwidth on the link;
//   - latency: each segment then travels U[LatencyMin, LatencyMax] + U[0, Jitter];
//   - loss: the stream stays reliable, as TCP keeps it. A lost segment is recovered by a
//     retransmission one round trip later (twice its one-way latency, at least 1 ms), as
//     SACK/fast retransmit does; everything behind it waits (head-of-line blocking). Loss
//     shows as delay, never as missing bytes, and Stats counts the lost segments;
//   - corruption: one bit of the segment is flipped. The corruption happens above the
//     transport, where TCP's checksum cannot see it, so it reaches the reader: the framing
//     layer's CRC must catch it. Stats counts the corrupted segments;
//   - order: segments are delivered in the order written.
//
// The random draws (latency, jitter, loss, corruption position) come from a PCG seeded with
// the seed, in a fixed order per segment, so the same writes under the same seed get the same
// delays, the same lost segments and the same flipped bits. Write blocks while more than
// QueueLimit bytes are in flight; Close discards what is still in flight, as a link going
// down would.
package netsim
