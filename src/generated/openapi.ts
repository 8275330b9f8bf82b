// Generated from openapi.yaml by scripts/generate-types.mjs (openapi-typescript); do not edit.

export interface paths {
    "/pets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List all animals
         * @description Returns a list of animals, at most `limit` of them, optionally filtered by availability status.
         *     Pagination other than `limit` and paging metadata are not shown.
         */
        get: operations["listPets"];
        put?: never;
        /**
         * Add an animal
         * @description Adds an animal from a `NewPet` body (`name` and `categoryId` required, `status` optional). The answer is the
         *     stored `Pet`, carrying the `id` the service assigned. A body missing required fields or holding invalid
         *     values gets 400 with an `Error` body.
         */
        post: operations["createPet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pets/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an animal (deprecated)
         * @deprecated
         * @description Deprecated. It is to be removed on 5 December 2030. The replacement is `GET /pets` with the `status` filter.
         */
        get: operations["getPet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description Availability status.
         * @enum {string}
         */
        PetStatus: "available" | "pending" | "sold";
        NewPet: {
            /** @description The animal's name. */
            name: string;
            /**
             * Format: int64
             * @description Identifier of the category the animal belongs to. Category records are not shown.
             */
            categoryId: number;
            status?: components["schemas"]["PetStatus"];
        };
        /** @description All fields of NewPet, plus the `id` assigned by the service on creation. */
        Pet: components["schemas"]["NewPet"] & {
            /**
             * Format: int64
             * @description Unique identifier assigned by the service on creation.
             */
            id: number;
        };
        Pets: components["schemas"]["Pet"][];
        Error: {
            /** @description Machine-readable error code. The set of values is not shown. */
            code: string;
            /** @description Human-readable description. */
            message: string;
            /** @description The HTTP status code; the same number as the response's status. */
            status: number;
        };
    };
    responses: {
        /** @description Missing or invalid API key. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPets: {
        parameters: {
            query?: {
                /** @description Maximum number of animals to return. */
                limit?: number;
                /** @description Filters by availability status. */
                status?: components["schemas"]["PetStatus"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The list of animals. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pets"];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    createPet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPet"];
            };
        };
        responses: {
            /** @description Animal added; the returned Pet carries the assigned `id`. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            /** @description Body is missing required fields or holds invalid values. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    getPet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the animal to retrieve. */
                petId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The requested animal. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The requested resource could not be found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
