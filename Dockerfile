# One image for the API and the worker; docker-compose.yml runs it twice with different commands.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev
COPY tsconfig.json ./
COPY openapi ./openapi
COPY generated ./generated
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
# The subscriber portal's bundle (dist/portal), served at /portal; its build tools are runtime dependencies.
COPY tools/build-portal.ts ./tools/build-portal.ts
RUN npx tsx tools/build-portal.ts
USER node
EXPOSE 3000
CMD ["npx", "tsx", "src/entry/api.ts"]
