// Package pointsub carries messages between libp2p peers as plain net.Conn connections.
//
// Listen registers a protocol on a libp2p host and returns a net.Listener whose connections
// are the incoming streams of that protocol; Dial opens a stream to a peer and returns it as
// a net.Conn. The connection is a raw byte stream, like the stream it wraps; the transport
// subpackage adds message framing on top, netsim degrades a connection on purpose.
//
// Options cover timeouts (dial, per-read, per-write), reset recovery (Dial retries a failed
// stream open; callers re-dial through the same options after a reset), buffer sizes, a
// large-message mode that writes in chunks sized by the message's size class, and a cap on
// concurrent incoming connections (streams over the cap are reset at once).
//
// NewHost builds the host the tests and the benchmark use: TCP on loopback with Noise and
// yamux, nothing else, so the build stays small.
package pointsub
