/* uvhttp: an HTTP/1.1 server library on libuv. */
#ifndef UVHTTP_UVHTTP_H
#define UVHTTP_UVHTTP_H

#include "uvhttp/common.h"
#include "uvhttp/config.h"
#include "uvhttp/http.h"
#include "uvhttp/parser.h"
#include "uvhttp/router.h"
#include "uvhttp/server.h"
#include "uvhttp/tls.h"

#define UVHTTP_VERSION "1.0.0"

#endif
