// Package traffic draws product ids with the benchmark's Pareto-like mix:
// 80 % of requests go to the top 20 products, 15 % to the next 180, 4 % to
// the next 800 and 1 % to 50 ids that do not exist.
package traffic
