package com.example.identity.common;

import java.util.Locale;

import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Pageable;

/**
 * One page of a list that grows (the admin page, {@code /api/tokens/list.php}, {@code /api/clients/list.php}):
 * {@code page} counts from 1 (default 1), {@code size} is 1 to {@value #MAX_SIZE} (default
 * {@value #DEFAULT_SIZE}), {@code q} an optional search of {@value #MIN_SEARCH} to {@value #MAX_SEARCH}
 * characters, matched case-insensitively as a substring (docs/api-tokens.md, Dashboard).
 */
public record ListQuery(int page, int size, String search) {

    public static final int DEFAULT_SIZE = 50;
    public static final int MAX_SIZE = 200;
    public static final int MIN_SEARCH = 3;
    public static final int MAX_SEARCH = 100;
    /** Deep pages cost an index walk of page × size rows: bounded. */
    public static final int MAX_PAGE = 10_000;

    public static final ListQuery FIRST = new ListQuery(1, DEFAULT_SIZE, null);

    /**
     * The query of the request's parameters (null when absent).
     *
     * @throws InvalidListQueryException naming the parameter, with a Spanish message
     */
    public static ListQuery parse(String page, String size, String q) {
        int p = number(page, 1, MAX_PAGE, 1, "page inválido (un número de 1 a " + MAX_PAGE + ")");
        int s = number(size, 1, MAX_SIZE, DEFAULT_SIZE, "size inválido (un número de 1 a " + MAX_SIZE + ")");
        String search = q == null ? null : q.strip();
        if (search != null && search.isEmpty()) {
            search = null;
        }
        if (search != null) {
            if (search.length() > MAX_SEARCH) {
                throw new InvalidListQueryException("q demasiado largo (máximo " + MAX_SEARCH + " caracteres)");
            }
            if (search.length() < MIN_SEARCH) {
                throw new InvalidListQueryException("q demasiado corto (mínimo " + MIN_SEARCH + " caracteres)");
            }
            if (search.chars().anyMatch(Character::isISOControl)) {
                throw new InvalidListQueryException("q inválido");
            }
        }
        return new ListQuery(p, s, search);
    }

    private static int number(String value, int min, int max, int absent, String error) {
        if (value == null) {
            return absent;
        }
        if (value.isEmpty() || value.length() > 6 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new InvalidListQueryException(error);
        }
        int n = Integer.parseInt(value);
        if (n < min || n > max) {
            throw new InvalidListQueryException(error);
        }
        return n;
    }

    /** Spring Data's page (from 0). */
    public Pageable pageable() {
        return PageRequest.of(page - 1, size);
    }

    public boolean searching() {
        return search != null;
    }

    /** The search as a LIKE pattern for a lower-cased column ({@code escape '\'}): "contains". */
    public String pattern() {
        String lower = search.toLowerCase(Locale.ROOT);
        return "%" + lower.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }

    /** The search as an e-mail address, as accounts store them (trimmed, lower-cased). */
    public String email() {
        return search.toLowerCase(Locale.ROOT);
    }

    /** A bad {@code page}, {@code size} or {@code q}. */
    public static class InvalidListQueryException extends RuntimeException {

        public InvalidListQueryException(String message) {
            super(message);
        }
    }
}
