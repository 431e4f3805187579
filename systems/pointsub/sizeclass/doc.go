// Package sizeclass sorts messages into the seed's five size classes and gives each the
// chunk size the large-message mode and the framed transport split it into.
package sizeclass
