package com.example.identity.sanctions;

import java.util.Collection;
import java.util.List;

/**
 * How the applications concerned hear of a sanction (decisions §26): the webhooks {@code usuario.sancionado} and
 * {@code usuario.sancion_levantada}. Implemented by webhooks/ ({@code SanctionEvents}), so that sanctions/ needs
 * nothing of the webhooks; both run in the transaction of the change (the outbox).
 */
public interface SanctionNotices {

    /**
     * {@code usuario.sancionado} for the applications concerned, found before the sanction revokes anything.
     *
     * @return the client ids told, told of the end too
     */
    List<String> placed(Sanction sanction);

    /** {@code usuario.sancion_levantada} for the applications told at the start and those concerned now. */
    void ended(Sanction sanction, Collection<String> toldAtStart);
}
