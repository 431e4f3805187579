// Package bench is pointsub's benchmark harness: the seed report's four groups
// (throughput, concurrent, buffer, network), run over libp2p and, as the same-run
// reference, over plain loopback TCP with the same framing and the same acknowledgements.
//
// Every message is acknowledged: the server answers each framed message with a control
// frame (or an error frame when its checksum fails), and a message's latency is the time
// from its first send to its acknowledgement — a round trip, not the duration of one Write
// as in the seed. A message whose error report comes back is resent (up to Retries times,
// keeping its first send time); a connection that breaks (a corrupted header makes the
// server lose its place and close the stream) is re-dialled and its unacknowledged messages
// resent; a message still unacknowledged when the drain time ends counts as failed.
//
// Two modes. Saturate (the default) sends as fast as the window of unacknowledged messages
// allows, so the figures measure the transport. Paced reproduces the seed: each connection
// sends MessageCount/Conns messages on a ticker over the duration (the first after one tick),
// so MB/s ≈ size × count / duration by construction.
package bench
