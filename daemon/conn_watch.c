/*
 * conn_watch.c - the slow-client deadline libmicrohttpd does not have:
 * its connection timeout starts again with every byte, so a client
 * trickling a header byte every few seconds holds a connection for
 * ever.  Every connection is listed here from libmicrohttpd's
 * "started" to its "closed" notification with the time its current
 * request began (the connection's start, or the previous answer); a
 * thread looks twice a second and shuts down (shutdown(2): the socket
 * stays libmicrohttpd's to close) each one whose request has not
 * reached the handler's answer within --request-timeout seconds, while
 * the handler is not working on it.  The list's lock is held from the
 * look to the shutdown, and libmicrohttpd closes a socket only after
 * the "closed" notification, which takes the same lock.
 */
#include <arpa/inet.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "ibpartd.h"

struct watched {
	struct watched *prev, *next;
	int fd;
	struct timespec since;
	bool busy, cut;
	char addr[INET6_ADDRSTRLEN];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static struct watched *head;
static pthread_t thread;
static bool running, stop;
static unsigned timeout_s;

static void now(struct timespec *t)
{
	clock_gettime(CLOCK_MONOTONIC, t);
}

static void address(struct MHD_Connection *c, char *out, size_t size)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;
	snprintf(out, size, "-");
	if (sa && sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
			  out, (socklen_t)size);
	else if (sa && sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6,
			  &((const struct sockaddr_in6 *)sa)->sin6_addr, out,
			  (socklen_t)size);
}

void conn_watch_event(void *cls, struct MHD_Connection *c,
		      void **socket_context,
		      enum MHD_ConnectionNotificationCode toe)
{
	(void)cls;
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		struct watched *w = calloc(1, sizeof(*w));
		*socket_context = w;
		if (!w)
			return;
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(
		    c, MHD_CONNECTION_INFO_CONNECTION_FD);
		w->fd = ci ? ci->connect_fd : -1;
		address(c, w->addr, sizeof(w->addr));
		now(&w->since);
		pthread_mutex_lock(&lock);
		w->next = head;
		if (head)
			head->prev = w;
		head = w;
		pthread_mutex_unlock(&lock);
		return;
	}
	struct watched *w = *socket_context;
	*socket_context = NULL;
	if (!w)
		return;
	pthread_mutex_lock(&lock);
	if (w->prev)
		w->prev->next = w->next;
	else
		head = w->next;
	if (w->next)
		w->next->prev = w->prev;
	pthread_mutex_unlock(&lock);
	free(w);
}

void conn_watch_busy(void *socket_context, bool busy)
{
	struct watched *w = socket_context;
	if (!w)
		return;
	pthread_mutex_lock(&lock);
	w->busy = busy;
	if (!busy)
		now(&w->since);
	pthread_mutex_unlock(&lock);
}

static void *watch(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!stop) {
		struct timespec t;
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += 500000000;
		if (t.tv_nsec >= 1000000000) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&wake, &lock, &t);
		struct timespec n;
		now(&n);
		for (struct watched *w = head; w && !stop; w = w->next) {
			if (w->busy || w->cut || w->fd < 0 ||
			    n.tv_sec - w->since.tv_sec < (time_t)timeout_s)
				continue;
			w->cut = true;
			shutdown(w->fd, SHUT_RDWR);
			daemon_log("ibpartd: refused: %s: no whole request in "
				   "%u s (--request-timeout): connection "
				   "closed",
				   w->addr, timeout_s);
		}
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

int conn_watch_start(struct ibpartd *d)
{
	timeout_s = d->request_timeout;
	stop = false;
	if (pthread_create(&thread, NULL, watch, NULL))
		return -1;
	running = true;
	return 0;
}

void conn_watch_stop(void)
{
	if (!running)
		return;
	pthread_mutex_lock(&lock);
	stop = true;
	pthread_cond_signal(&wake);
	pthread_mutex_unlock(&lock);
	pthread_join(thread, NULL);
	running = false;
}
