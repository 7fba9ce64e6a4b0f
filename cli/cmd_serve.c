/* damero serve: the tables on a local web page, and through an HTTP API that answers
 * what `damero probe --json` and `damero line --json` print. HTTP is libmicrohttpd's. */
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli/api_json.h"
#include "cli/commands.h"
#include "cli/line_play.h"
#include "cli/options.h"
#include "cli/probing.h"
#include "cli/serve_gate.h"
#include "cli/serve_watch.h"
#include "cli/web_files.h"
#include "core/variant.h"

static const char help[] =
    "usage: damero serve [--dir DIR] [--port N] [--bind ADDR] [--cache MB] [--budget MS]\n"
    "\n"
    "Serves the tables of every variant that has some in DIR: a web page to explore them\n"
    "(a board, the value of the position, every move with its value and its value under\n"
    "the rules, the best line, position editing, a pasted PDN game) at http://ADDR:N/, and\n"
    "an HTTP API:\n"
    "\n"
    "  GET /api/variants             the variants served, with their boards: a list of\n"
    "                                {variant, max_pieces, columns, rows, algebraic, grid\n"
    "                                (the square numbers, top row first, 0 where no piece\n"
    "                                stands), names (of squares 1, 2, ...), rules (how\n"
    "                                many move-limit rules the variant has), first (the\n"
    "                                side that moves first, W or B), gametype (its PDN\n"
    "                                GameType, 0 where it has none)}\n"
    "  GET /api/VARIANT?fen=FEN      what 'damero probe --json' prints, with a category\n"
    "                                (win, cursed-win, draw, blessed-loss, loss, or\n"
    "                                unknown where a short search under the rules cannot\n"
    "                                settle it, and then unknown_because: why, and how to\n"
    "                                settle it) on the position and on every move\n"
    "  GET /api/VARIANT/line?fen=FEN what 'damero line --json' prints\n"
    "  GET /api/VARIANT/moves?fen=FEN the legal moves without values, for a position\n"
    "                                outside the tables: {variant, fen, moves: [{move,\n"
    "                                after, category}]} (the category of a move into\n"
    "                                the tables, as above; else unknown)\n"
    "  GET /api/VARIANT/start        the starting position: {variant, fen}\n"
    "  GET /api/VARIANT/rules?fen=FEN[&reading=2]\n"
    "                                what 'damero probe --json --rules' prints: the value\n"
    "                                under the move-limit rules, every count starting at\n"
    "                                the position (503 when the search needs more room\n"
    "                                or time)\n"
    "  GET /api/VARIANT/rules/line?fen=FEN[&reading=2]\n"
    "                                what 'damero line --json --rules' prints (a search,\n"
    "                                as /rules)\n"
    "\n"
    "Errors are JSON too, {\"error\": sentence, \"status\": code, \"reason\": word}: 400\n"
    "bad_request (a bad FEN or request), 404 not_found (an unknown variant or path) or\n"
    "table_missing (the position's table is not built), 405 method_not_allowed, 503 busy\n"
    "(with Retry-After: the server is busy or a search spent its budget). GET, HEAD and\n"
    "OPTIONS are answered, to any origin (CORS); connections are kept alive; answers may\n"
    "be cached a day (Cache-Control), errors not. The page is compiled into the program,\n"
    "so nothing else on the disk can be read.\n"
    "\n"
    "Under load: the searches under the rules run as many at once as there are cores, and\n"
    "at most four times as many wait; more are refused (503) at once. A search stops when\n"
    "its budget is spent or its client has gone. A client has 5 seconds to send a request\n"
    "line and headers (32 kB at most, 16 query arguments), and one address at most 32\n"
    "connections at once (256 in all). Other requests never wait for a search.\n"
    "\n"
    "It runs until interrupted (Ctrl-C, SIGTERM). SIGHUP makes it open again the table\n"
    "files that failed (damaged, truncated) once they are rebuilt; a failed file that\n"
    "changes is opened again anyway.\n"
    "\n"
    "  --dir DIR     the table root, as given to 'damero gen --dir'\n"
    "                (default: " DEFAULT_DIR_HELP ")\n"
    "  --port N      the TCP port (default: 8080; 0 takes a free one, printed at the start)\n"
    "  --bind ADDR   the address to listen on (default: 127.0.0.1, this machine only; an\n"
    "                IPv6 address such as ::1 works too). Another address opens the tables\n"
    "                to the network: the server has no access control.\n"
    "  --cache MB    each variant's table block cache (default: 64)\n"
    "  --budget MS   the most time, in milliseconds, a search under the rules may take,\n"
    "                its wait for a place included (default: 10000)\n";

#define DEFAULT_PORT 8080
#define DEFAULT_BUDGET_MS 10000
#define MAX_CONNECTIONS 256      /* at once, a thread each; more wait in the listen queue */
#define PER_ADDRESS 32           /* connections at once from one address (closing ones count
                                    until their thread ends) */
#define HEAD_MS 5000             /* a request line and headers take at most this */
#define TIMEOUT_SECONDS 10       /* an idle connection is closed after this */
#define REQUEST_MEMORY (32 << 10) /* the request line, headers and answer head */
#define MAX_ARGUMENTS 16         /* query arguments read (a request uses two) */
#define QUEUE_PER_WORKER 4       /* searches that may wait, per search running */
#define RETRY_AFTER "2"          /* seconds, in every 503 */
#define NOTES_PER_SECOND 10      /* libmicrohttpd's notes printed, at most */
#define THREAD_STACK (4 << 20)    /* probing a capture takes 32 KB of stack per piece */
#define LINE_MAX_PLIES 1000       /* as `damero line` */
#define MAX_VARIANTS 32
#define METHODS "GET, HEAD, OPTIONS" /* the methods served, in Allow and CORS answers */
#define API_CACHE "public, max-age=86400" /* an API answer only changes when the tables are
                                             rebuilt, which a day's cache can wait for */
#define PAGE_CACHE "no-cache"     /* the page changes with the program, the variants served
                                     with a restart: revalidated */
#define ERROR_CACHE "no-store"    /* a missing table may be built, a busy server free */

struct serve_args {
    struct table_args t; /* dir and cache_bytes */
    const char *bind;
    int port;
    int budget_ms;
};

/* What the request handlers share, from every thread at once; set before serving but
 * for the gate and the watch, which lock. */
struct server {
    damero_tb *tables[MAX_VARIANTS]; /* the variants with tables */
    int count;
    char *variants_json;             /* the answer to /api/variants */
    long budget_ms;                  /* of a search under the rules */
    struct gate gate;                /* the searches under the rules */
    struct watch watch;              /* the connections' request heads */
};

static int parse_args(int argc, char **argv, struct serve_args *a)
{
    const struct option_spec options[] = {
        { "dir", OPTION_PATH, .to.text = &a->t.dir },
        { "port", OPTION_NUMBER, .to.number = &a->port, .min = 0, .max = 65535 },
        { "bind", OPTION_TEXT, .to.text = &a->bind },
        CACHE_OPTION(&a->t),
        { "budget", OPTION_NUMBER, .to.number = &a->budget_ms, .min = 10, .max = 3600000 },
        { .name = NULL },
    };
    struct operands operands;
    int status = parse_options("serve", help, options, argc, argv, &operands);

    if (status == EXIT_OK)
        status = operands_at_most("serve", &operands, 0, "");
    return status;
}

/* ---- answers ---- */

/* Queues r with the headers every answer has: any page may call the API (CORS: the
 * answers are public and the server keeps no session), and a 405 says what is allowed. */
static enum MHD_Result queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r,
                             const char *cache)
{
    enum MHD_Result queued;

    MHD_add_response_header(r, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_ORIGIN, "*");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, cache);
    if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, RETRY_AFTER);
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, METHODS);
    queued = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return queued;
}

static enum MHD_Result send_bytes(struct MHD_Connection *c, unsigned status, const char *type,
                                  const void *data, size_t size,
                                  enum MHD_ResponseMemoryMode mode, const char *cache)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(size, (void *)data, mode);

    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Content-Security-Policy", "default-src 'self'");
    return queue(c, status, r, cache);
}

/* The answer to OPTIONS, a browser's CORS preflight among others: 204, what may be
 * asked, and for how long the browser may remember it. */
static enum MHD_Result send_options(struct MHD_Connection *c)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);

    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, METHODS);
    MHD_add_response_header(r, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_METHODS, METHODS);
    MHD_add_response_header(r, "Access-Control-Allow-Headers", "*");
    MHD_add_response_header(r, "Access-Control-Max-Age", "86400");
    return queue(c, MHD_HTTP_NO_CONTENT, r, API_CACHE);
}

/* Sends json (freed here) with the status; an API answer may be read from any page. */
static enum MHD_Result send_json(struct MHD_Connection *c, unsigned status, json_t *json)
{
    const char *cache = status == MHD_HTTP_OK ? API_CACHE : ERROR_CACHE;
    static const char no_memory[] = "{\"error\": \"out of memory\", \"status\": 503}";
    char *text = json ? json_dumps(json, 0) : NULL;

    json_decref(json);
    if (!text)
        return send_bytes(c, MHD_HTTP_SERVICE_UNAVAILABLE, "application/json", no_memory,
                          strlen(no_memory), MHD_RESPMEM_PERSISTENT, ERROR_CACHE);
    return send_bytes(c, status, "application/json", text, strlen(text), MHD_RESPMEM_MUST_FREE,
                      cache);
}

/* {"error": message, "status": status, "reason": reason}. The message may quote the
 * request, so bytes outside printable ASCII become '?': the JSON stays valid UTF-8
 * whatever was sent. reason: a word a program can test (docs/commands.md lists them). */
static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *reason,
                                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *reason,
                                  const char *fmt, ...)
{
    char message[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    for (char *s = message; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
            *s = '?';
    return send_json(c, status, json_with(json_with(json_with_error(json_object(), message),
                                                    "status", json_integer(status)),
                                          "reason", json_string(reason)));
}

/* The reason word of an answer that failed with the HTTP status. */
static const char *reason_of_status(unsigned status)
{
    switch (status) {
    case MHD_HTTP_BAD_REQUEST: return "bad_request";
    case MHD_HTTP_NOT_FOUND: return "not_found";
    case MHD_HTTP_METHOD_NOT_ALLOWED: return "method_not_allowed";
    case MHD_HTTP_SERVICE_UNAVAILABLE: return "busy";
    default: return "internal";
    }
}

/* The HTTP status of a failed damero call. */
static unsigned status_of(int error)
{
    switch (error) {
    case DAMERO_ERR_POSITION: return MHD_HTTP_BAD_REQUEST;
    case DAMERO_ERR_MISSING: return MHD_HTTP_NOT_FOUND;
    case DAMERO_ERR_MEMORY: return MHD_HTTP_SERVICE_UNAVAILABLE;
    case DAMERO_ERR_STOPPED: return MHD_HTTP_SERVICE_UNAVAILABLE;
    default: return MHD_HTTP_INTERNAL_SERVER_ERROR;
    }
}

/* The reason word of a failed damero call: a table that is not built (a position beyond
 * the tables, or a set without the DTM a search under the rules needs) is told apart
 * from a wrong URL, both 404. */
static const char *reason_of(int error)
{
    return error == DAMERO_ERR_MISSING ? "table_missing" : reason_of_status(status_of(error));
}

static damero_tb *find_tables(const struct server *s, const char *variant)
{
    for (int i = 0; i < s->count; i++)
        if (strcmp(damero_variant(s->tables[i]), variant) == 0)
            return s->tables[i];
    return NULL;
}

/* What /api/VARIANT[/KIND] answers, by the path after the variant. */
enum answer_kind {
    ANSWER_PROBE, ANSWER_LINE, ANSWER_MOVES, ANSWER_START, ANSWER_RULES, ANSWER_RULES_LINE,
    ANSWER_KINDS
};
static const char *const kind_paths[ANSWER_KINDS] = { "", "/line", "/moves", "/start",
                                                      "/rules", "/rules/line" };

/* The answers that search under the rules: they pass the gate, within the budget. */
static bool searches(enum answer_kind kind)
{
    return kind == ANSWER_RULES || kind == ANSWER_RULES_LINE;
}

/* What `damero probe --json --rules` prints, every count starting at pos. */
static int rules_answer(damero_tb *tb, const damero_position *pos, int reading, json_t **json)
{
    damero_rules_move *moves = malloc(DAMERO_MAX_MOVES * sizeof *moves);
    damero_rules_value value;
    int count = 0, status;

    if (!moves)
        return DAMERO_ERR_MEMORY;
    status = damero_probe_rules(tb, pos, NULL, reading, &value);
    if (status == DAMERO_OK)
        status = damero_root_moves_rules(tb, pos, NULL, reading, moves, DAMERO_MAX_MOVES,
                                         &count);
    if (status == DAMERO_OK)
        status = position_rules_json(tb, pos, reading, &value, moves, count, json);
    free(moves);
    return status;
}

/* What `damero line --json` prints, with --rules when under_rules (every count starting
 * at pos). */
static int line_answer(damero_tb *tb, const damero_position *pos, bool under_rules,
                       int reading, json_t **json)
{
    damero_counts counts;
    struct line l;
    int status = line_init(&l, LINE_MAX_PLIES, pos) < 0 ? DAMERO_ERR_MEMORY : DAMERO_OK;

    if (status == DAMERO_OK && under_rules &&
        (status = damero_counts_start(tb, pos, &counts)) == DAMERO_OK)
        status = line_under_rules(tb, &l, &counts, reading);
    if (status == DAMERO_OK)
        status = line_play(tb, &l);
    if (status == DAMERO_OK)
        status = line_json(tb, &l, json);
    line_free(&l);
    return status;
}

static int answer_json(damero_tb *tb, const damero_position *pos, enum answer_kind kind,
                       int reading, json_t **json)
{
    damero_move *moves;
    int status;

    if (kind == ANSWER_START)
        return fen_json(tb, pos, json);
    if (kind == ANSWER_RULES)
        return rules_answer(tb, pos, reading, json);
    if (kind == ANSWER_LINE || kind == ANSWER_RULES_LINE)
        return line_answer(tb, pos, kind == ANSWER_RULES_LINE, reading, json);
    if (!(moves = malloc(DAMERO_MAX_MOVES * sizeof *moves)))
        return DAMERO_ERR_MEMORY;
    status = kind == ANSWER_PROBE ? position_json(tb, pos, moves, json)
                                  : legal_moves_json(tb, pos, moves, json);
    free(moves);
    return status;
}

/* The position a request names: ?fen=, or the start for /start. Returns 0, or the HTTP
 * status of the fault with its sentence in message. */
static unsigned requested_position(struct MHD_Connection *c, damero_tb *tb, const char *path,
                                   enum answer_kind kind, damero_position *pos, char *message,
                                   size_t size)
{
    const char *fen = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "fen");
    int status;

    if (kind == ANSWER_START) {
        status = damero_start_position(tb, pos);
    } else if (!fen || !*fen) {
        snprintf(message, size, "give the position: /api/%s?fen=FEN", path);
        return MHD_HTTP_BAD_REQUEST;
    } else if (strlen(fen) >= DAMERO_FEN_SIZE) {
        snprintf(message, size, "the FEN is longer than %d characters", DAMERO_FEN_SIZE - 1);
        return MHD_HTTP_BAD_REQUEST;
    } else {
        status = damero_parse_fen(tb, fen, pos);
    }
    if (status == DAMERO_OK)
        return 0;
    snprintf(message, size, "%s", damero_error_message());
    return status_of(status);
}

/* The reading of the rules a request asks for: ?reading=1 (the default) or 2, as
 * damero_probe_rules takes it. Returns 0, or the HTTP status of the fault with its
 * sentence in message. */
static unsigned requested_reading(struct MHD_Connection *c, int *reading, char *message,
                                  size_t size)
{
    const char *text = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "reading");

    *reading = 1;
    if (!text || strcmp(text, "1") == 0)
        return 0;
    if (strcmp(text, "2") == 0) {
        *reading = 2;
        return 0;
    }
    snprintf(message, size, "reading is 1 or 2 (the first or second reading of the rules; "
             "readings are numbered 1 and 2 since damero 0.3.0), not '%s'", text);
    return MHD_HTTP_BAD_REQUEST;
}

/* The sentence of a failed answer: a search under the rules says why it ran out of room,
 * and one stopped by its budget (see answer_search) says so; the JSON builders do not. */
static const char *failure_sentence(const struct server *s, int status, enum answer_kind kind,
                                    char *sentence, size_t size)
{
    if (status == DAMERO_ERR_STOPPED) {
        snprintf(sentence, size, "the search under the rules needs more than its budget of "
                 "%ld ms (or its client left): try again later, or ask for a position "
                 "closer to the end", s->budget_ms);
        return sentence;
    }
    return status == DAMERO_ERR_MEMORY && !searches(kind) ? "out of memory"
                                                          : damero_error_message();
}

/* GET /api/VARIANT?fen=..., /api/VARIANT/line?fen=..., /api/VARIANT/moves?fen=...,
 * /api/VARIANT/rules?fen=...[&reading=2] and /api/VARIANT/start (path: what follows
 * /api/). */
static enum MHD_Result answer_position(struct MHD_Connection *c, const struct server *s,
                                       const char *path)
{
    char variant[32];
    const char *slash = strchr(path, '/');
    size_t length = slash ? (size_t)(slash - path) : strlen(path);
    enum answer_kind kind = ANSWER_PROBE;
    char message[512];
    damero_position pos;
    damero_tb *tb;
    json_t *json;
    unsigned http;
    int reading, status;

    while (kind < ANSWER_KINDS && strcmp(slash ? slash : "", kind_paths[kind]) != 0)
        kind++;
    if (kind == ANSWER_KINDS || length == 0 || length >= sizeof variant)
        return send_error(c, MHD_HTTP_NOT_FOUND, "not_found",
                          "no such API path: /api/%s (see /api/variants)", path);
    memcpy(variant, path, length);
    variant[length] = '\0';
    if (!(tb = find_tables(s, variant)))
        return send_error(c, MHD_HTTP_NOT_FOUND, "not_found", "no tables for the variant '%s' "
                          "here (see /api/variants for those served)", variant);
    if ((http = requested_position(c, tb, path, kind, &pos, message, sizeof message)) != 0 ||
        (http = requested_reading(c, &reading, message, sizeof message)) != 0)
        return send_error(c, http, reason_of_status(http), "%s", message);
    if ((status = answer_json(tb, &pos, kind, reading, &json)) != DAMERO_OK)
        return send_error(c, status_of(status), reason_of(status), "%s",
                          failure_sentence(s, status, kind, message, sizeof message));
    return send_json(c, MHD_HTTP_OK, json);
}

static enum MHD_Result answer_file(struct MHD_Connection *c, const char *url)
{
    if (strcmp(url, "/") == 0)
        url = "/index.html";
    for (const struct web_file *f = web_files; f->path; f++)
        if (strcmp(f->path, url) == 0)
            return send_bytes(c, MHD_HTTP_OK, f->type, f->data, f->size,
                              MHD_RESPMEM_PERSISTENT, PAGE_CACHE);
    return send_error(c, MHD_HTTP_NOT_FOUND, "not_found", "no such page: %s", url);
}

/* ---- under load ---- */

/* What a search under the rules may spend: time, while its client waits. */
struct budget {
    struct timespec deadline; /* CLOCK_MONOTONIC */
    int fd;                   /* the client's socket */
};

/* Whether the client on fd has closed the connection: readable with nothing to read (a
 * client that sends more, as a pipelining one does, is still there). */
static bool client_gone(int fd)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    char byte;
    if (fd < 0 || poll(&p, 1, 0) != 1)
        return false;
    return (p.revents & (POLLERR | POLLHUP)) || recv(fd, &byte, 1, MSG_PEEK) <= 0;
}

/* The stop function of a search (damero_set_stop), and the gate's give_up. */
static int budget_spent(void *context)
{
    const struct budget *b = context;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > b->deadline.tv_sec ||
           (now.tv_sec == b->deadline.tv_sec && now.tv_nsec >= b->deadline.tv_nsec) ||
           client_gone(b->fd);
}

static struct budget budget_from_now(struct MHD_Connection *c, long ms)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    struct budget b = { .fd = info ? info->connect_fd : -1 };
    clock_gettime(CLOCK_MONOTONIC, &b.deadline);
    b.deadline.tv_sec += ms / 1000;
    b.deadline.tv_nsec += ms % 1000 * 1000000L;
    b.deadline.tv_sec += b.deadline.tv_nsec / 1000000000L;
    b.deadline.tv_nsec %= 1000000000L;
    return b;
}

/* /api/VARIANT/rules: answer_position once the gate lets it in, the search stopped when
 * its budget is spent or its client has gone. */
static enum MHD_Result answer_search(struct MHD_Connection *c, struct server *s,
                                     const char *url)
{
    struct budget b = budget_from_now(c, s->budget_ms);
    enum MHD_Result result;

    switch (gate_enter(&s->gate, budget_spent, &b)) {
    case GATE_FULL:
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "busy", "the server is busy: %d "
                          "searches under the rules run and %d wait; try again in a moment",
                          s->gate.workers, s->gate.queue);
    case GATE_GAVE_UP:
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "busy", "the search waited its whole "
                          "budget (%ld ms) for a place: the server is busy; try again in a "
                          "moment", s->budget_ms);
    case GATE_IN:
        break;
    }
    damero_set_stop(budget_spent, &b);
    result = answer_position(c, s, url + 5);
    damero_set_stop(NULL, NULL);
    gate_leave(&s->gate);
    return result;
}

static bool is_search(const char *url)
{
    const char *kind = strncmp(url, "/api/", 5) == 0 ? strchr(url + 5, '/') : NULL;
    for (int k = 0; kind && k < ANSWER_KINDS; k++)
        if (searches(k) && strcmp(kind, kind_paths[k]) == 0)
            return true;
    return false;
}

static struct watched *watched_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* libmicrohttpd's connection notices: each connection watched while it is open (it is
 * closed after the notice that it closes, so the watch never touches a closed socket). */
static void connection_notice(void *cls, struct MHD_Connection *c, void **socket_context,
                              enum MHD_ConnectionNotificationCode code)
{
    struct server *s = cls;
    const union MHD_ConnectionInfo *info;

    if (code == MHD_CONNECTION_NOTIFY_STARTED &&
        (info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD)))
        *socket_context = watch_add(&s->watch, info->connect_fd);
    else if (code == MHD_CONNECTION_NOTIFY_CLOSED)
        watch_remove(&s->watch, *socket_context);
}

/* An answer has gone out (or the request failed): the next request head's time starts. */
static void request_done(void *cls, struct MHD_Connection *c, void **state,
                         enum MHD_RequestTerminationCode code)
{
    struct server *s = cls;
    (void)state, (void)code;
    watch_request_done(&s->watch, watched_of(c));
}

/* What request_line_read returns for a request it has answered: the handler then only
 * ends the connection. */
static char refused;

/* Answers 400 to a request with too many query arguments, on its socket, and ends the
 * connection: see request_line_read. */
static void refuse_arguments(struct MHD_Connection *c, int arguments)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    char body[256], answer[512];
    int length = snprintf(body, sizeof body, "{\"error\": \"%d query arguments: at most %d "
                          "are read (the API takes fen and reading)\", \"status\": 400}",
                          arguments, MAX_ARGUMENTS);
    int size = snprintf(answer, sizeof answer, "HTTP/1.1 400 Bad Request\r\nConnection: "
                        "close\r\nContent-Type: application/json\r\nContent-Length: "
                        "%d\r\n\r\n%s", length, body);

    if (!info)
        return;
    for (int sent = 0, n = 0; sent < size; sent += n)
        if ((n = (int)send(info->connect_fd, answer + sent, (size_t)(size - sent),
                           MSG_NOSIGNAL)) <= 0)
            break;
    shutdown(info->connect_fd, SHUT_WR);
}

/* libmicrohttpd's first look at a request, its line read, before it parses the query.
 * Each query argument takes about 50 bytes of the request's memory as it is parsed, so a
 * request line of a few kB with hundreds of arguments runs out of it, and
 * libmicrohttpd closes the connection without an answer; such a request is answered
 * 400 here instead, at once. It runs in the connection's own thread, which has written
 * nothing yet. */
static void *request_line_read(void *cls, const char *uri, struct MHD_Connection *c)
{
    const char *query = strchr(uri, '?');
    int arguments = query ? 1 : 0;
    (void)cls;

    for (const char *q = query; q && *q; q++)
        arguments += *q == '&';
    if (arguments <= MAX_ARGUMENTS)
        return NULL;
    refuse_arguments(c, arguments);
    return &refused;
}

/* What the handler's first call of a request leaves in *state: see answer. */
static char headers_read;

/* libmicrohttpd's handler: called from its threads (one per connection), several at
 * once. The answer goes out at the second call, once the (empty) body is read:
 * libmicrohttpd closes the connection after an answer queued at the first call, before
 * it knows the request ended, so that would end every connection after one request. */
static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version,
                              const char *upload_data, size_t *upload_data_size, void **state)
{
    struct server *s = cls;
    (void)version, (void)upload_data;

    watch_request_started(&s->watch, watched_of(c));
    if (*state == &refused)
        return MHD_NO; /* answered already: the connection ends */
    if (*state != &headers_read) {
        *state = &headers_read;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0; /* a body, which no request here takes: dropped */
        return MHD_YES;
    }
    if (strcmp(method, MHD_HTTP_METHOD_OPTIONS) == 0)
        return send_options(c);
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method_not_allowed",
                          "only GET, HEAD and OPTIONS are served, not %s", method);
    if (strcmp(url, "/api/variants") == 0)
        return send_bytes(c, MHD_HTTP_OK, "application/json", s->variants_json,
                          strlen(s->variants_json), MHD_RESPMEM_PERSISTENT, PAGE_CACHE);
    if (is_search(url))
        return answer_search(c, s, url);
    if (strncmp(url, "/api/", 5) == 0)
        return answer_position(c, s, url + 5);
    return answer_file(c, url);
}

/* ---- starting ---- */

/* The board of tb as the page draws it: the square numbers row by row from the top; the
 * side that moves first, which starts each numbered pair of moves; and the PDN GameType
 * by which the page knows a pasted game's variant. */
static json_t *board_json(damero_tb *tb)
{
    damero_position start;
    damero_board board;
    char name[DAMERO_SQUARE_NAME_SIZE];
    json_t *grid = json_array(), *names = json_array();

    damero_board_shape(tb, &board);
    for (int row = board.rows - 1; row >= 0 && grid; row--) {
        json_t *squares = json_array();
        for (int column = 0; column < board.columns; column++)
            json_append(&squares, json_integer(damero_square_at(tb, column, row)));
        json_append(&grid, squares);
    }
    for (int square = 1; square <= board.squares && names; square++)
        if (damero_square_name(tb, square, name) == DAMERO_OK)
            json_append(&names, json_string(name));
    damero_start_position(tb, &start);
    return json_pack("{s:s, s:i, s:i, s:i, s:b, s:o, s:o, s:i, s:s, s:i}", "variant",
                     damero_variant(tb), "max_pieces", damero_max_pieces(tb), "columns",
                     board.columns, "rows", board.rows, "algebraic", board.algebraic, "grid",
                     grid, "names", names, "rules", damero_rule_count(tb), "first",
                     start.side_to_move == DAMERO_WHITE ? "W" : "B", "gametype",
                     variant_by_name(damero_variant(tb))->pdn_gametype);
}

/* Opens the tables of every variant that has some in dir. Returns EXIT_OK or an exit
 * code after printing the error. */
static int open_tables(const struct serve_args *a, struct server *s)
{
    json_t *list = json_array();
    const char *name;
    damero_tb *tb;

    for (int k = 0; (name = damero_variant_name(k)) && s->count < MAX_VARIANTS; k++) {
        if (damero_open(name, a->t.dir, a->t.cache_bytes, &tb) != DAMERO_OK) {
            json_decref(list);
            return probe_failure("serve");
        }
        if (damero_max_pieces(tb) == 0) {
            damero_close(tb);
            continue;
        }
        s->tables[s->count++] = tb;
        json_append(&list, board_json(tb));
    }
    s->variants_json = list ? json_dumps(list, 0) : NULL;
    json_decref(list);
    if (!s->variants_json) {
        fprintf(stderr, "damero serve: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    if (s->count == 0) {
        fprintf(stderr, "damero serve: no tables in %s: build some with 'damero gen --dir %s'\n",
                a->t.dir, a->t.dir);
        return EXIT_FAILURE_RUN;
    }
    return EXIT_OK;
}

/* libmicrohttpd's notes (a connection refused at a limit or cut, a request too large),
 * at most NOTES_PER_SECOND lines a second on stderr: a client opening connections as fast
 * as it can would otherwise write a line for each, filling the server's log. The next
 * line printed says how many were left out. */
struct note_limit {
    pthread_mutex_t lock;
    time_t second;
    int printed;             /* in that second */
    unsigned long left_out;
};

static struct note_limit notes = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void print_note(void *cls, const char *format, va_list ap)
{
    struct note_limit *n = cls;
    time_t now = time(NULL);

    pthread_mutex_lock(&n->lock);
    if (now != n->second)
        n->second = now, n->printed = 0;
    if (n->printed < NOTES_PER_SECOND) {
        if (n->left_out > 0)
            fprintf(stderr, "damero serve: %lu more notes of libmicrohttpd not shown\n",
                    n->left_out);
        vfprintf(stderr, format, ap);
        n->printed++;
        n->left_out = 0;
    } else {
        n->left_out++;
    }
    pthread_mutex_unlock(&n->lock);
}

/* Waits for SIGINT or SIGTERM (blocked in every thread: see cmd_serve); on SIGHUP, the
 * table files that failed are forgotten, to be opened again when next needed. */
static void serve_until_stopped(const struct server *s, const sigset_t *signals)
{
    int signal;

    while (sigwait(signals, &signal) == 0 && signal == SIGHUP) {
        int forgotten = 0;
        for (int i = 0; i < s->count; i++)
            forgotten += damero_forget_failures(s->tables[i]);
        printf("damero serve: SIGHUP: %d failed table file%s to be opened again\n", forgotten,
               forgotten == 1 ? "" : "s");
        fflush(stdout);
    }
}

/* Why the server could not listen at `where`: libmicrohttpd does not say, so a socket of
 * our own tries the same bind and its errno tells the cause and the cure. */
static const char *why_not_listening(const struct addrinfo *where)
{
    int fd = socket(where->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0), error = 0, on = 1;
    if (fd < 0)
        return strerror(errno);
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on); /* as libmicrohttpd does */
    if (bind(fd, where->ai_addr, where->ai_addrlen) != 0)
        error = errno;
    close(fd);
    switch (error) {
    case EADDRINUSE:
        return "the port is in use (--port 0 takes a free one)";
    case EACCES:
        return "ports below 1024 need privileges (choose --port 1024 or above)";
    case EADDRNOTAVAIL:
        return "the address is not one of this machine's (--bind 127.0.0.1 serves this "
               "machine, --bind 0.0.0.0 every network)";
    case 0:
        return "the server could not start (out of memory or threads?)";
    default:
        return strerror(error);
    }
}

/* Listens on a->bind, port a->port, a thread per connection (a request never waits for
 * another's work but at the gate of the searches), until stopped. */
static int run(const struct serve_args *a, struct server *s, const struct addrinfo *where,
               const sigset_t *signals)
{
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
                     MHD_USE_POLL | MHD_USE_ERROR_LOG |
                     (where->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0);
    const union MHD_DaemonInfo *info;
    struct MHD_Daemon *daemon;

    daemon = MHD_start_daemon(
        flags, (uint16_t)a->port, NULL, NULL, answer, s,
        MHD_OPTION_EXTERNAL_LOGGER, print_note, &notes, MHD_OPTION_SOCK_ADDR, where->ai_addr,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)MAX_CONNECTIONS,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)PER_ADDRESS,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)TIMEOUT_SECONDS,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)REQUEST_MEMORY,
        MHD_OPTION_THREAD_STACK_SIZE, (size_t)THREAD_STACK,
        MHD_OPTION_NOTIFY_CONNECTION, connection_notice, s,
        MHD_OPTION_NOTIFY_COMPLETED, request_done, s,
        MHD_OPTION_URI_LOG_CALLBACK, request_line_read, NULL, MHD_OPTION_END);
    if (!daemon) {
        fprintf(stderr, "damero serve: cannot listen on %s port %d: %s\n", a->bind, a->port,
                why_not_listening(where));
        return EXIT_FAILURE_RUN;
    }
    info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    printf(where->ai_family == AF_INET6 ? "damero serve: http://[%s]:%u/" :
                                          "damero serve: http://%s:%u/",
           a->bind, info ? info->port : (unsigned)a->port);
    printf(" (tables of");
    for (int i = 0; i < s->count; i++)
        printf(" %s", damero_variant(s->tables[i]));
    printf("; Ctrl-C stops)\n");
    fflush(stdout);
    serve_until_stopped(s, signals);
    MHD_stop_daemon(daemon);
    return EXIT_OK;
}

/* The gate and the watch, for run. Returns EXIT_OK or an exit code after the error. */
static int start_guards(struct server *s)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int workers = cores < 1 ? 1 : cores > 16 ? 16 : (int)cores;

    if (gate_init(&s->gate, workers, QUEUE_PER_WORKER * workers) != 0) {
        fprintf(stderr, "damero serve: cannot make a lock (out of memory?)\n");
        return EXIT_FAILURE_RUN;
    }
    if (watch_start(&s->watch, HEAD_MS) != 0) {
        gate_free(&s->gate);
        fprintf(stderr, "damero serve: cannot start a thread (out of memory?)\n");
        return EXIT_FAILURE_RUN;
    }
    return EXIT_OK;
}

static void stop_guards(struct server *s)
{
    watch_stop(&s->watch);
    gate_free(&s->gate);
}

int cmd_serve(int argc, char **argv)
{
    struct serve_args a = { .t = table_args_default(), .bind = "127.0.0.1",
                            .port = DEFAULT_PORT, .budget_ms = DEFAULT_BUDGET_MS };
    struct addrinfo hints = { .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
                              .ai_socktype = SOCK_STREAM },
                    *where = NULL;
    struct server s = { .count = 0 };
    char port[8];
    sigset_t signals;
    int status = parse_args(argc, argv, &a);

    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    /* blocked before any other thread starts (the server's, OpenMP's), so that every
     * thread inherits it and the signals wait for sigwait rather than kill the process */
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);
    snprintf(port, sizeof port, "%d", a.port);
    if (getaddrinfo(a.bind, port, &hints, &where) != 0 || !where)
        return usage_error("serve", "--bind takes an IP address such as 127.0.0.1 or ::1, "
                                    "not '%s'", a.bind);
    s.budget_ms = a.budget_ms;
    status = open_tables(&a, &s);
    if (status == EXIT_OK && (status = start_guards(&s)) == EXIT_OK) {
        status = run(&a, &s, where, &signals);
        stop_guards(&s);
    }
    freeaddrinfo(where);
    for (int i = 0; i < s.count; i++)
        damero_close(s.tables[i]);
    free(s.variants_json);
    return status;
}
