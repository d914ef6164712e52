package com.example.identity.account;

import jakarta.persistence.Converter;

import com.example.identity.common.ValueConverter;

@Converter(autoApply = true)
class RoleConverter extends ValueConverter<Role> {

    RoleConverter() {
        super(Role::value, Role::fromValue);
    }
}
