package com.example.identity.dpop;

import java.io.Serial;

/**
 * A DPoP proof that is refused ({@link DPoPProofs}), or a DPoP-bound token presented without one. The message is
 * the reason in Spanish, written in ASCII (RFC 6749 §5.2's characters: it goes into {@code error_description}s and
 * {@code WWW-Authenticate} challenges); it names which check failed and nothing of the proof itself.
 */
public final class InvalidProof extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    static final String MALFORMED = "Prueba DPoP mal formada, de firma invalida o de algoritmo no admitido";
    static final String METHOD = "htm de la prueba DPoP no es el metodo de la peticion";
    static final String TARGET = "htu de la prueba DPoP no es la URL de la peticion";
    static final String ISSUED_AT = "iat de la prueba DPoP fuera de la ventana de 60 segundos";
    public static final String OTHER_KEY = "La prueba DPoP no es de la clave a la que esta ligado el token";
    static final String ACCESS_TOKEN_HASH = "ath de la prueba DPoP no corresponde al token presentado";
    static final String REPLAYED = "Prueba DPoP ya utilizada: cada peticion lleva una prueba nueva (jti)";
    static final String NO_JTI = "Falta jti en la prueba DPoP";
    /** A DPoP-bound token presented without a proof, or as a Bearer token. */
    public static final String MISSING = "Token ligado a una clave DPoP: envialo con Authorization: DPoP y una prueba de esa clave";
    /** A proof-less request of an application that requires DPoP ({@code dpop_obligatorio}). */
    public static final String REQUIRED = "Esta aplicacion exige DPoP: falta la cabecera DPoP con una prueba";
    /** More than one {@code DPoP} header. */
    public static final String REPEATED = "Una sola cabecera DPoP por peticion";

    public InvalidProof(String reason) {
        super(reason, null, false, false);
    }
}
