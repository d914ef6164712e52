package com.example.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The limits of the code's size, in {@code mvn verify} beside {@link ArchitectureTest}: each failure names the
 * file, method or package to fix.
 * <ul>
 * <li>No two packages share a simple name: a newcomer must never open the wrong one of two folders of one name.</li>
 * <li>No method or constructor of the main code takes more than {@value #MAX_PARAMETERS} parameters. A record's
 * canonical constructor is left out: its parameters are the record's components, declared once in the header, and
 * a call site passes them positionally the way it would set as many fields; the compiler's own parameters (an inner
 * class's outer instance, an enum's name and ordinal, a lambda's captured values) are not the source's.</li>
 * <li>At most {@value #MAX_SLEEPS} sleeps in the tests ({@code Thread.sleep}, {@code TimeUnit....sleep}): a test
 * waits for a condition, not for time to pass.</li>
 * <li>No main {@code .java} file over {@value #MAX_LINES} lines.</li>
 * </ul>
 */
class CodeLimitsTest {

    private static final String BASE = "com.example.identity";
    static final int MAX_PARAMETERS = 8;
    static final int MAX_SLEEPS = 10;
    static final int MAX_LINES = 350;

    private static final Path MAIN = Path.of("src", "main", "java");
    private static final Path TESTS = Path.of("src", "test", "java");
    private static final Pattern SLEEP = Pattern.compile("\\b(?:Thread|TimeUnit\\s*\\.\\s*[A-Z]+)\\s*\\.\\s*sleep\\s*\\(");

    @Test
    void noTwoPackagesShareASimpleName() throws IOException {
        Map<String, Set<String>> bySimpleName = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            files.filter(file -> file.toString().endsWith(".java")).map(file -> MAIN.relativize(file.getParent()))
                    .distinct().forEach(folder -> bySimpleName
                            .computeIfAbsent(folder.getFileName().toString(), k -> new TreeSet<>())
                            .add(folder.toString().replace('/', '.')));
        }
        bySimpleName.values().removeIf(packages -> packages.size() < 2);
        assertThat(bySimpleName).as("packages of src/main that share a simple name").isEmpty();
    }

    @Test
    void noMethodOrConstructorTakesMoreThanEightParameters() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(BASE);
        List<String> over = new ArrayList<>();
        for (JavaClass type : classes) {
            for (JavaCodeUnit unit : type.getCodeUnits()) {
                if (unit.getModifiers().contains(JavaModifier.SYNTHETIC) || unit.getModifiers().contains(JavaModifier.BRIDGE)
                        || isCanonicalConstructor(type, unit)) {
                    continue;
                }
                int count = sourceParameters(type, unit);
                if (count > MAX_PARAMETERS) {
                    over.add(unit.getFullName() + ": " + count);
                }
            }
        }
        assertThat(over).as("methods and constructors of src/main over " + MAX_PARAMETERS + " parameters").isEmpty();
    }

    /** The parameters written in the source: without an inner class's outer instance or an enum's name and ordinal. */
    private static int sourceParameters(JavaClass type, JavaCodeUnit unit) {
        int count = unit.getRawParameterTypes().size();
        if (unit instanceof JavaConstructor) {
            if (type.isEnum()) {
                count -= 2;
            } else if (type.isInnerClass() && !type.getModifiers().contains(JavaModifier.STATIC)) {
                count -= 1;
            }
        }
        return count;
    }

    private static boolean isCanonicalConstructor(JavaClass type, JavaCodeUnit unit) {
        if (!(unit instanceof JavaConstructor) || !type.isRecord()) {
            return false;
        }
        Class<?> reflected = type.reflect();
        List<Class<?>> components = Stream.of(reflected.getRecordComponents())
                .<Class<?>>map(component -> component.getType()).toList();
        return unit.getRawParameterTypes().stream().map(JavaClass::reflect).toList().equals(components);
    }

    @Test
    void atMostTenSleepsInTheTests() throws IOException {
        List<String> sleeps = new ArrayList<>();
        try (Stream<Path> files = Files.walk(TESTS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher sleep = SLEEP.matcher(withoutComment(lines.get(i)));
                    while (sleep.find()) {
                        sleeps.add(TESTS.relativize(file) + ":" + (i + 1));
                    }
                }
            }
        }
        assertThat(sleeps).as("sleeps in src/test").hasSizeLessThanOrEqualTo(MAX_SLEEPS);
    }

    /** A line without its {@code //} comment (a comment may talk about a sleep). */
    private static String withoutComment(String line) {
        int comment = line.indexOf("//");
        String code = comment < 0 ? line : line.substring(0, comment);
        return code.strip().startsWith("*") ? "" : code;
    }

    @Test
    void noMainFileOverThreeHundredAndFiftyLines() throws IOException {
        List<String> over = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                int lines = Files.readAllLines(file).size();
                if (lines > MAX_LINES) {
                    over.add(MAIN.relativize(file) + ": " + lines);
                }
            }
        }
        assertThat(over).as("files of src/main over " + MAX_LINES + " lines").isEmpty();
    }
}
