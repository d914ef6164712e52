package com.example.identity.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.ServletException;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.MapSession;
import org.springframework.session.MapSessionRepository;

class SessionStoreTest {

    /** A store of sessions that counts its reads and writes, as the database would see them. */
    static final class CountingRepository implements FindByIndexNameSessionRepository<MapSession> {
        final MapSessionRepository sessions = new MapSessionRepository(new ConcurrentHashMap<>());
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();

        @Override
        public MapSession createSession() {
            return sessions.createSession();
        }

        @Override
        public void save(MapSession session) {
            writes.incrementAndGet();
            sessions.save(session);
        }

        @Override
        public MapSession findById(String id) {
            reads.incrementAndGet();
            return sessions.findById(id);
        }

        @Override
        public void deleteById(String id) {
            sessions.deleteById(id);
        }

        @Override
        public Map<String, MapSession> findByIndexNameAndIndexValue(String indexName, String indexValue) {
            return Map.of();
        }

        Instant storedLastAccess(String id) {
            return sessions.findById(id).getLastAccessedTime();
        }
    }

    private final CountingRepository database = new CountingRepository();
    private final SessionStore store = new SessionStore(database, event -> { });

    private String storedSession(Instant lastAccess) {
        var session = database.createSession();
        session.setLastAccessedTime(lastAccess);
        session.setAttribute("a", "1");
        database.save(session);
        database.writes.set(0);
        return session.getId();
    }

    private void inOneRequest(Runnable work) throws ServletException, IOException {
        SessionStore.requestScope().doFilter(new MockHttpServletRequest(), new MockHttpServletResponse(),
                (request, response) -> work.run());
    }

    @Test
    void aSessionIsReadOncePerRequest() throws Exception {
        String id = storedSession(Instant.now());
        inOneRequest(() -> {
            var first = store.findById(id);
            var again = store.findById(id);
            assertThat(again).isSameAs(first);
        });
        assertThat(database.reads).hasValue(1);

        inOneRequest(() -> store.findById(id));
        assertThat(database.reads).as("the next request reads it afresh").hasValue(2);
    }

    @Test
    void outsideARequestEveryLookupReads() {
        String id = storedSession(Instant.now());
        store.findById(id);
        store.findById(id);
        assertThat(database.reads).hasValue(2);
    }

    @Test
    void aSessionDeletedOrRenamedInTheRequestIsNotHandedOutAgain() throws Exception {
        String deleted = storedSession(Instant.now());
        String renamed = storedSession(Instant.now());
        AtomicReference<String> newId = new AtomicReference<>();
        inOneRequest(() -> {
            store.findById(deleted);
            store.deleteById(deleted);
            assertThat(store.findById(deleted)).isNull();

            var session = store.findById(renamed);
            newId.set(session.changeSessionId());
            store.save(session);
            assertThat(store.findById(renamed)).isNull();
            assertThat((String) store.findById(newId.get()).getAttribute("a")).isEqualTo("1");
        });
    }

    @Test
    void theLastAccessMovesInStepsOfAMinute() {
        Instant stored = Instant.now().minusSeconds(30);
        String id = storedSession(stored);

        var session = store.findById(id);
        session.setLastAccessedTime(Instant.now());
        store.save(session);
        assertThat(database.storedLastAccess(id)).as("30 s later: unchanged").isEqualTo(stored);

        Instant later = stored.plus(SessionStore.LAST_ACCESS_GRANULARITY);
        session = store.findById(id);
        session.setLastAccessedTime(later);
        store.save(session);
        assertThat(database.storedLastAccess(id)).as("a minute later: moved").isEqualTo(later);
    }

    @Test
    void attributeChangesAreKept() {
        String id = storedSession(Instant.now());
        var session = store.findById(id);
        session.setAttribute("b", "2");
        session.setMaxInactiveInterval(Duration.ofMinutes(5));
        store.save(session);
        var read = store.findById(id);
        assertThat((String) read.getAttribute("b")).isEqualTo("2");
        assertThat(read.getMaxInactiveInterval()).isEqualTo(Duration.ofMinutes(5));
    }
}
