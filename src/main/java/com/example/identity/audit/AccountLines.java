package com.example.identity.audit;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * An account's lines of the trail, by the account's id and never by an address (issue 39.6): those it wrote as
 * the actor ({@code actor_id}) and those about it ({@code usuario #<id>} subjects), for the person's download; and
 * at the account's deletion, every address it had taken out of its lines (decisions §20, issue 39.7).
 */
@Component
public class AccountLines {

    /** One line as the person's download shows it. */
    public record Line(Instant occurredAt, String event, @Nullable String actor, @Nullable String address,
            @Nullable String subject) {
    }

    private final JdbcTemplate jdbc;

    AccountLines(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The lines of account {@code userId}, oldest first. */
    public List<Line> of(long userId) {
        String subject = "usuario #" + userId;
        return jdbc.query("select occurred_at, event, actor, address, subject from audit_events where actor_id = ? "
                + "or actor = ? or subject = ? or subject like ? or subject like ? order by occurred_at, id",
                (rs, n) -> new Line(instant(rs.getObject("occurred_at")), rs.getString("event"), rs.getString("actor"),
                        rs.getString("address"), rs.getString("subject")),
                userId, subject, subject, subject + " %", subject + ":%");
    }

    /**
     * The deletion of account {@code userId}: as the transaction commits, after every line it wrote, each line the
     * account acted in names it {@code usuario #<id>}, and so does every mention of any address it had:
     * {@code addresses} (its last one and those it confirmed), those it acted under, and those its address changes
     * left ({@code usuario #<id> de <old> a <new>}).
     */
    public void forgetAddressesAtCommit(long userId, Set<String> addresses) {
        Runnable forget = () -> forgetAddresses(userId, addresses);
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            forget.run();
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public int getOrder() {
                return Ordered.LOWEST_PRECEDENCE;
            }

            @Override
            public void beforeCommit(boolean readOnly) {
                forget.run();
            }
        });
    }

    private void forgetAddresses(long userId, Set<String> known) {
        String subject = "usuario #" + userId;
        Set<String> addresses = new LinkedHashSet<>(known);
        addresses.addAll(jdbc.queryForList("select distinct actor from audit_events where actor_id = ? and actor like ?",
                String.class, userId, "%@%"));
        String changed = subject + " de ";
        for (String line : jdbc.queryForList("select subject from audit_events where event = ? and subject like ?",
                String.class, AuditEvent.Type.EMAIL_CHANGED.name(), like(changed) + "%")) {
            // "usuario #<id> de <old> a <new>": addresses hold no space
            String[] parts = line.substring(changed.length()).split(" ");
            if (parts.length == 3 && "a".equals(parts[1])) {
                addresses.add(parts[0]);
                addresses.add(parts[2]);
            }
        }
        addresses.removeIf(address -> address.indexOf('@') < 1);
        jdbc.update("update audit_events set actor = ? where actor_id = ?", subject, userId);
        for (String address : addresses) {
            // a line written before the account was known by its id (V90) names it by the address only
            jdbc.update("update audit_events set actor = ? where actor = ? and actor_id is null", subject, address);
            // "usuario #<id> <address>" (how the account's own lines name it) becomes "usuario #<id>", any other
            // mention of the address "usuario #<id>" too
            jdbc.update("update audit_events set subject = replace(replace(subject, ?, ?), ?, ?) where subject like ?",
                    subject + " " + address, subject, address, subject, "%" + like(address) + "%");
        }
    }

    private static String like(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private static Instant instant(Object value) {
        if (value instanceof Timestamp t) {
            return t.toInstant();
        }
        if (value instanceof OffsetDateTime t) {
            return t.toInstant();
        }
        throw new IllegalStateException("not a time: " + value);
    }
}
