/**
 * Sanctions (decisions §26, docs/sanctions.md): a person kept out of one application or of every one, for a time or
 * for good, with the reason they are shown. Owns the {@code sanctions} table.
 */
@NullMarked
package com.example.identity.sanctions;

import org.jspecify.annotations.NullMarked;
