package com.example.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;

/**
 * The packages' imports, read from the compiled classes with ArchUnit, in {@code mvn verify}.
 * <ul>
 * <li>The foundation ({@code common}, {@code crypto}, {@code audit}, which may use {@code common}) and the
 * infrastructure below the features ({@code mail}, {@code keys}, {@code session}, {@code outbound}, {@code web}) import no feature: every feature may use them, so they may use none.</li>
 * <li>No new package cycle among the features (the root package, the application class and the typed settings
 * that every feature reads, is left out). The imports that close a cycle today (a package imports another that, directly or
 * not, imports it back) are listed in {@code architecture/package-cycles.txt}: the renovation of issue 26 works
 * that list down. An import that closes a new cycle fails here, and so does a listed one that no longer closes
 * any (take it off the list, so it cannot come back unnoticed).</li>
 * </ul>
 */
class ArchitectureTest {

    private static final String BASE = "com.example.identity";

    /** Each package and the packages of this service it may import (the root package always). */
    private static final Map<String, Set<String>> FOUNDATION = Map.of(
            "common", Set.of(),
            "crypto", Set.of(),
            "audit", Set.of("common"), // its purge of old rows is a common.Purge, as every feature's
            "oidc", Set.of(), // the claims request of OpenID Connect, read by the authorization server and consent
            "mail", Set.of("crypto"),
            "keys", Set.of("audit", "common", "crypto"),
            "session", Set.of("crypto"), // every feature's pages use the open sessions
            "outbound", Set.of(), // the receivers' address rule and the one client that POSTs to them
            "web", Set.of("common")); // infrastructure only: the pages' side (chain, home, advices) is site/

    private static Map<String, Map<String, String>> imports;
    private static JavaClasses classes;

    @BeforeAll
    static void readClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(BASE);
        imports = new TreeMap<>();
        for (JavaClass origin : classes) {
            String from = packageOf(origin);
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                if (!target.getPackageName().startsWith(BASE)) {
                    continue;
                }
                String to = packageOf(target);
                // the root package is the composition root (the application class, the typed settings that
                // every feature reads): edges to and from it are not the features' cycles
                if (!to.equals(from) && !"(root)".equals(to) && !"(root)".equals(from)) {
                    // one example per pair of packages, for the failure message
                    imports.computeIfAbsent(from, k -> new TreeMap<>()).putIfAbsent(to,
                            origin.getSimpleName() + " → " + target.getSimpleName());
                }
            }
        }
    }

    /** The first package under the base: {@code oauth} for {@code com.example.identity.oauth.x.Y}. */
    static String packageOf(JavaClass type) {
        String name = type.getPackageName();
        if (name.equals(BASE)) {
            return "(root)";
        }
        String rest = name.substring(BASE.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    @Test
    void theFoundationImportsNoFeature() {
        List<String> upward = FOUNDATION.entrySet().stream()
                .flatMap(e -> imports.getOrDefault(e.getKey(), Map.of()).entrySet().stream()
                        .filter(to -> !e.getValue().contains(to.getKey()))
                        .map(to -> e.getKey() + " -> " + to.getKey() + " (" + to.getValue() + ")"))
                .sorted().toList();
        assertThat(upward).as("imports from the foundation up into a feature").isEmpty();
    }

    /**
     * Every page shows who is logged in through {@code site/CurrentUserAdvice}, which applies to the packages it
     * names: a package of page controllers left out of it (a move, a new feature) loses the header's user.
     * oauth's one page, the logout confirmation ({@code oauth/logout}), sets it itself.
     */
    /**
     * Inside {@code oauth/}, one package per endpoint (authorize, token, userinfo, revocation, device, logout,
     * metadata) over the shared {@code store/} and {@code error/}: no two of them import each other, directly or
     * not, so each endpoint can be read, and changed, from its own folder down.
     */
    @Test
    void theAuthorizationServersPackagesFormNoCycle() {
        SlicesRuleDefinition.slices().matching(BASE + ".oauth.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void everyPackageOfPageControllersGetsTheLoggedInUser() throws Exception {
        Set<String> named = Set.of(Class.forName(BASE + ".site.CurrentUserAdvice")
                .getAnnotation(org.springframework.web.bind.annotation.ControllerAdvice.class).basePackages());
        Set<String> withPages = new TreeSet<>();
        for (JavaClass type : classes) {
            if (type.isAnnotatedWith(org.springframework.stereotype.Controller.class)
                    && !type.getPackageName().equals(BASE + ".oauth.logout")) {
                withPages.add(type.getPackageName());
            }
        }
        assertThat(named).as("site/CurrentUserAdvice's packages").containsAll(withPages);
    }

    @Test
    void noImportClosesANewPackageCycle() throws IOException {
        Set<String> cyclic = new TreeSet<>();
        Map<String, String> examples = new TreeMap<>();
        imports.forEach((from, targets) -> targets.forEach((to, example) -> {
            if (reaches(to, from)) {
                cyclic.add(from + " -> " + to);
                examples.put(from + " -> " + to, example);
            }
        }));
        Set<String> listed = listed();
        Set<String> added = new TreeSet<>(cyclic);
        added.removeAll(listed);
        Set<String> gone = new TreeSet<>(listed);
        gone.removeAll(cyclic);
        assertThat(added.stream().map(edge -> edge + " (" + examples.get(edge) + ")").toList())
                .as("imports that close a new package cycle (architecture/package-cycles.txt lists the known ones)")
                .isEmpty();
        assertThat(gone).as("listed in architecture/package-cycles.txt but no longer closing a cycle: take them off")
                .isEmpty();
    }

    private static boolean reaches(String start, String goal) {
        Deque<String> next = new ArrayDeque<>(List.of(start));
        Set<String> seen = new HashSet<>(next);
        while (!next.isEmpty()) {
            String at = next.pop();
            if (at.equals(goal)) {
                return true;
            }
            for (String to : imports.getOrDefault(at, Map.of()).keySet()) {
                if (seen.add(to)) {
                    next.push(to);
                }
            }
        }
        return false;
    }

    private static Set<String> listed() throws IOException {
        try (InputStream in = ArchitectureTest.class.getResourceAsStream("/architecture/package-cycles.txt")) {
            assertThat(in).as("architecture/package-cycles.txt").isNotNull();
            Set<String> edges = new TreeSet<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String edge = line.strip();
                if (!edge.isEmpty() && !edge.startsWith("#")) {
                    edges.add(edge);
                }
            }
            return edges;
        }
    }
}
