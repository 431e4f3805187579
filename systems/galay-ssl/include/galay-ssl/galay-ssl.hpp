// Everything of galay-ssl: the coroutine runtime and the TLS layer over it.
#pragma once

#include "galay-ssl/runtime/scheduler.hpp"
#include "galay-ssl/runtime/socket.hpp"
#include "galay-ssl/runtime/task.hpp"
#include "galay-ssl/ssl_context.hpp"
#include "galay-ssl/ssl_engine.hpp"
#include "galay-ssl/ssl_error.hpp"
#include "galay-ssl/ssl_socket.hpp"
