# nginx:stable-bookworm: Debian's nginx package, run as the official image runs it (in the
# foreground, logs to the container's output). deploy/nginx/nginx.conf is written for both.
FROM benchdash-stand-in/bookworm
RUN apt-get update \
 && apt-get install -y --no-install-recommends nginx \
 && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/default \
 && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
