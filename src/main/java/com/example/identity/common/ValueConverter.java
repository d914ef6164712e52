package com.example.identity.common;

import java.util.function.Function;

import jakarta.persistence.AttributeConverter;

/**
 * Stores an enum as the value the contract spells ({@code developer_api}, {@code personal},
 * {@code perfil}), never as its Java name, so renaming a constant cannot change the database. A subclass
 * per enum, annotated {@code @Converter(autoApply = true)}, names the two directions.
 *
 * @param <E> the enum
 */
public abstract class ValueConverter<E extends Enum<E>> implements AttributeConverter<E, String> {

    private final Function<E, String> toValue;
    private final Function<String, E> fromValue;

    /**
     * @param fromValue the constant of a stored value; throws for a value no constant has
     */
    protected ValueConverter(Function<E, String> toValue, Function<String, E> fromValue) {
        this.toValue = toValue;
        this.fromValue = fromValue;
    }

    @Override
    public String convertToDatabaseColumn(E constant) {
        return constant == null ? null : toValue.apply(constant);
    }

    @Override
    public E convertToEntityAttribute(String value) {
        return value == null ? null : fromValue.apply(value);
    }
}
