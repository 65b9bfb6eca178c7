# One image for the API and the worker; docker-compose.yml runs it twice with different commands.
# Two stages: the build stage has the whole toolchain (TypeScript, tsx, esbuild, webpack) and
# writes dist/ (npm run build: the portal, the compiled service, the prebuilt workflow bundle);
# the runtime stage has production dependencies and dist/ only, and runs plain node.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY openapi ./openapi
COPY generated ./generated
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY tools/build.ts tools/build-portal.ts ./tools/
RUN npm run build

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
# The contract is read at start (request validation, /openapi.json); dist/ holds the rest.
COPY openapi ./openapi
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
CMD ["node", "dist/src/entry/api.js"]
