package com.example.identity.oauth.metadata;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.springframework.http.HttpHeaders;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.common.JsonContent;

/**
 * {@code /oauth/jwks.json} and {@code /.well-known/openid-configuration} are written by Spring Authorization
 * Server's own endpoint filters, as {@code application/json}; decisions §1 wants every JSON answer
 * {@code application/json;charset=UTF-8} ({@link JsonContent#TYPE}). This wraps their response so that a
 * JSON content type, however it is set, is written as that one.
 */
class JsonContentTypeFilter extends OncePerRequestFilter {

    private final RequestMatcher documents;

    JsonContentTypeFilter(RequestMatcher documents) {
        this.documents = documents;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !documents.matches(request);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(request, new HttpServletResponseWrapper(response) {
            @Override
            public void setContentType(String type) {
                super.setContentType(isJson(type) ? JsonContent.TYPE : type);
            }

            @Override
            public void setHeader(String name, String value) {
                if (HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) {
                    setContentType(value);
                }
                else {
                    super.setHeader(name, value);
                }
            }

            @Override
            public void addHeader(String name, String value) {
                if (HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) {
                    setContentType(value);
                }
                else {
                    super.addHeader(name, value);
                }
            }
        });
    }

    private static boolean isJson(String type) {
        return type != null && type.regionMatches(true, 0, "application/json", 0, "application/json".length());
    }
}
