package com.example.identity.common;

import org.springframework.http.MediaType;

/** The content type of every JSON answer of this service (decisions §1), in one place. */
public final class JsonContent {

    /** {@code application/json;charset=UTF-8}, as the contract spells it. */
    public static final String TYPE = "application/json;charset=UTF-8";

    public static final MediaType MEDIA_TYPE = MediaType.parseMediaType(TYPE);

    private JsonContent() {
    }
}
