# debian:bookworm
FROM benchdash-stand-in/bookworm
