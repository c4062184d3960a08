/*
 * view_cache.c - the page at `/` and GET /ibpart/v1/status kept as last
 * rendered, served again while nothing they show has changed: the
 * service's view key (ibp_service_view_key: the revision, what was
 * recorded of it, the files the views read) and, for the page, the
 * collector's generation (its sweeps and the last verification's drift,
 * which the page's series and drift table show).  Rendering the page
 * audits and draws the whole plan, and the status audits it for its
 * posture: at 48,000 ports that is most of a second per request, for a
 * page that changes a few times a day.  A key of 0 is never kept.
 * Two requests missing at once both render; the last one's is kept.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpartd.h"

bool view_cache_get(struct view_cache *c, uint64_t key, uint64_t extra,
		    char **body)
{
	*body = NULL;
	if (!key)
		return false;
	pthread_mutex_lock(&c->lock);
	if (c->body && c->key == key && c->extra == extra)
		*body = strdup(c->body);
	pthread_mutex_unlock(&c->lock);
	return *body != NULL;
}

void view_cache_put(struct view_cache *c, uint64_t key, uint64_t extra,
		    const char *body)
{
	char *copy = key && body ? strdup(body) : NULL;
	pthread_mutex_lock(&c->lock);
	c->renders++;
	if (copy || !key) {
		free(c->body);
		c->body = copy;
		c->key = key;
		c->extra = extra;
	}
	pthread_mutex_unlock(&c->lock);
}

unsigned long view_cache_renders(struct view_cache *c)
{
	pthread_mutex_lock(&c->lock);
	unsigned long n = c->renders;
	pthread_mutex_unlock(&c->lock);
	return n;
}

void view_cache_free(struct view_cache *c)
{
	pthread_mutex_lock(&c->lock);
	free(c->body);
	c->body = NULL;
	pthread_mutex_unlock(&c->lock);
}
