# python:3.11-slim-bookworm: Debian's Python 3.11 with pip installing system-wide, like the image.
FROM benchdash-stand-in/bookworm
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-pip python3-venv \
 && rm -rf /var/lib/apt/lists/* \
 && rm -f /usr/lib/python3.11/EXTERNALLY-MANAGED \
 && ln -sf python3 /usr/bin/python && ln -sf pip3 /usr/bin/pip
CMD ["python3"]
