package com.example.identity.common;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The words of a space-separated column (scopes, {@code amr}, requested claims), as the tables store them:
 * in their order, none when the column is null or blank.
 */
public final class SpaceSeparated {

    private SpaceSeparated() {
    }

    public static Set<String> words(String spaceSeparated) {
        return spaceSeparated == null || spaceSeparated.isBlank() ? Set.of()
                : new LinkedHashSet<>(Arrays.asList(spaceSeparated.split(" ")));
    }
}
