package com.example.identity.audit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code eventos_auditoria}: the account's lines, by its id, never by an address (issue 39.6). */
@Component
class AuditData implements PersonalData {

    private final AccountLines lines;

    AuditData(AccountLines lines) {
        this.lines = lines;
    }

    @Override
    public String section() {
        return "eventos_auditoria";
    }

    @Override
    public Set<String> tables() {
        return Set.of("audit_events");
    }

    @Override
    public @Nullable Object of(Person person) {
        return lines.of(person.userId()).stream().map(line -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("occurred_at", line.occurredAt().toString());
            row.put("evento", line.event());
            row.put("actor", line.actor());
            row.put("direccion", line.address());
            row.put("objeto", line.subject());
            return row;
        }).toList();
    }

    @Override
    public void forget(Person person) {
        // the lines stay, their addresses replaced at commit (AccountLines#forgetAddressesAtCommit)
    }
}
