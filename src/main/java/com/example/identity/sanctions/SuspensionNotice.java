package com.example.identity.sanctions;

import java.io.Serial;
import java.io.Serializable;

import org.jspecify.annotations.Nullable;

/**
 * What a sanctioned person is shown where they are kept out (decisions §26, the login paths and {@code /activar}):
 * "Tu cuenta está suspendida hasta el {@code hasta}" (or "de forma permanente"), "en esta aplicación" for a sanction
 * in one application, and the reason. Small and serializable: a refused login carries it in the session to the login
 * page (on whichever instance shows it).
 *
 * @param hasta the end, formatted {@code yyyy-MM-dd HH:mm UTC}, or null for a permanent sanction
 */
public record SuspensionNotice(String motivo, @Nullable String hasta, boolean inApplication) implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    public static SuspensionNotice of(Sanction sanction) {
        return new SuspensionNotice(sanction.motivo(),
                sanction.hasta() == null ? null : SanctionService.WHEN.format(sanction.hasta()), !sanction.isGlobal());
    }
}
