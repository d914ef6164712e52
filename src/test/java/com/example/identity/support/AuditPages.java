package com.example.identity.support;

import static org.assertj.core.api.Assertions.assertThat;

/** The admin's audit page (dashboard/AuditController) as tests read it. */
public final class AuditPages {

    private AuditPages() {
    }

    /**
     * The admin's audit pages, newest first, read from the first until one holds {@code needle} (at most 100 pages):
     * other test classes of the shared context move the clock forward and leave lines dated in the future, which
     * come first, so this test's lines are not always on the first page.
     */
    public static String trailUntil(WebClient admin, String needle) {
        StringBuilder read = new StringBuilder();
        for (int page = 1; page <= 100; page++) {
            var answer = admin.get("/dashboard/admin/audit.php?pagina=" + page);
            assertThat(answer.statusCode()).isEqualTo(200);
            read.append(answer.body());
            if (answer.body().contains(needle) || !answer.body().contains("id=\"audit-older\"")) {
                break;
            }
        }
        return read.toString();
    }
}
