package com.example.identity.session;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.Session;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The session repository the service uses: Spring Session JDBC's, with two database round trips fewer per
 * request that carries a session (measured on PostgreSQL: three SELECTs and an UPDATE per authorization
 * request became one SELECT; docs/performance.md).
 * <ul>
 * <li><b>One read per request.</b> Spring Session's {@code SessionRepositoryFilter} commits a session twice
 * when a response is committed early (a redirect: once then, once at the end of the filter) and clears its
 * cache of the requested session each time, so it reads the same row again after saving it
 * (spring-session issues #1424 and #1731). Within a request ({@link #requestScope()}), a session read once
 * is handed out again instead of being read again.</li>
 * <li><b>Last access written at most once per {@link #LAST_ACCESS_GRANULARITY}.</b> Every request marks the
 * session accessed, and Spring Session JDBC writes any change, so every page or authorization request cost
 * an UPDATE (and on PostgreSQL a WAL flush) only to move the last access time. Here a session's last
 * access moves only when the stored one is a minute old or more; attribute changes are written as before.
 * The cost: an idle session expires up to a minute earlier than its timeout says.</li>
 * </ul>
 * Everything else (indexes by principal name, expiry, deletion, the cleanup job) is the delegate's.
 */
final class SessionStore implements FindByIndexNameSessionRepository<SessionStore.StoredSession> {

    static final Duration LAST_ACCESS_GRANULARITY = Duration.ofMinutes(1);

    /** Sessions read in the current request, by id; {@code null} outside {@link #requestScope()}. */
    private static final ThreadLocal<Map<String, StoredSession>> READ_IN_REQUEST = new ThreadLocal<>();

    private final FindByIndexNameSessionRepository<Session> delegate;
    private final ApplicationEventPublisher events;

    @SuppressWarnings("unchecked")
    SessionStore(FindByIndexNameSessionRepository<? extends Session> delegate, ApplicationEventPublisher events) {
        this.delegate = (FindByIndexNameSessionRepository<Session>) delegate;
        this.events = events;
    }

    @Override
    public StoredSession createSession() {
        return new StoredSession(delegate.createSession());
    }

    @Override
    public void save(StoredSession session) {
        delegate.save(session.stored);
    }

    @Override
    public @Nullable StoredSession findById(String id) {
        Map<String, StoredSession> read = READ_IN_REQUEST.get();
        if (read != null) {
            StoredSession known = read.get(id);
            // a session whose id changed (a login) is no longer found under its old id
            if (known != null && known.getId().equals(id) && !known.isExpired()) {
                return known;
            }
        }
        Session stored = delegate.findById(id);
        if (stored == null) {
            return null;
        }
        StoredSession session = new StoredSession(stored);
        if (read != null) {
            read.put(id, session);
        }
        return session;
    }

    @Override
    public void deleteById(String id) {
        Map<String, StoredSession> read = READ_IN_REQUEST.get();
        if (read != null) {
            read.remove(id);
        }
        // the sid of a session that logged applications in, for their back-channel logout (SessionEnded)
        Session ending = delegate.findById(id);
        Object sid = ending == null ? null : ending.getAttribute(SessionEnded.SID);
        delegate.deleteById(id);
        if (sid instanceof String value) {
            events.publishEvent(new SessionEnded(value));
        }
    }

    @Override
    public Map<String, StoredSession> findByIndexNameAndIndexValue(String indexName, String indexValue) {
        Map<String, StoredSession> found = new LinkedHashMap<>();
        delegate.findByIndexNameAndIndexValue(indexName, indexValue)
                .forEach((id, session) -> found.put(id, new StoredSession(session)));
        return found;
    }

    /**
     * The servlet filter that bounds the per-request reuse of a read session: it must run outside Spring
     * Session's filter, so that the second commit of that filter still sees the request's reads.
     */
    static OncePerRequestFilter requestScope() {
        return new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
                    FilterChain chain) throws ServletException, IOException {
                Map<String, StoredSession> outer = READ_IN_REQUEST.get();
                READ_IN_REQUEST.set(new HashMap<>(4));
                try {
                    chain.doFilter(request, response);
                }
                finally {
                    if (outer == null) {
                        READ_IN_REQUEST.remove();
                    }
                    else {
                        READ_IN_REQUEST.set(outer);
                    }
                }
            }
        };
    }

    /** A stored session whose last access time moves in steps of {@link #LAST_ACCESS_GRANULARITY}. */
    static final class StoredSession implements Session {

        private final Session stored;

        StoredSession(Session stored) {
            this.stored = stored;
        }

        @Override
        public void setLastAccessedTime(Instant lastAccessedTime) {
            Instant previous = stored.getLastAccessedTime();
            if (previous == null || !lastAccessedTime.isBefore(previous.plus(LAST_ACCESS_GRANULARITY))) {
                stored.setLastAccessedTime(lastAccessedTime);
            }
        }

        @Override
        public String getId() {
            return stored.getId();
        }

        @Override
        public String changeSessionId() {
            return stored.changeSessionId();
        }

        @Override
        public <T> @Nullable T getAttribute(String attributeName) {
            return stored.getAttribute(attributeName);
        }

        @Override
        public Set<String> getAttributeNames() {
            return stored.getAttributeNames();
        }

        @Override
        public void setAttribute(String attributeName, Object attributeValue) {
            stored.setAttribute(attributeName, attributeValue);
        }

        @Override
        public void removeAttribute(String attributeName) {
            stored.removeAttribute(attributeName);
        }

        @Override
        public Instant getCreationTime() {
            return stored.getCreationTime();
        }

        @Override
        public Instant getLastAccessedTime() {
            return stored.getLastAccessedTime();
        }

        @Override
        public void setMaxInactiveInterval(Duration interval) {
            stored.setMaxInactiveInterval(interval);
        }

        @Override
        public Duration getMaxInactiveInterval() {
            return stored.getMaxInactiveInterval();
        }

        @Override
        public boolean isExpired() {
            return stored.isExpired();
        }
    }
}
