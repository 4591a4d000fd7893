"""write answers kept by idempotency key

Revision ID: b24e1d0c9a57
Revises: f15c0a7b9e21
Create Date: 2026-11-27 22:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b24e1d0c9a57'
down_revision = 'f15c0a7b9e21'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('write_answers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('scope', sa.String(length=100), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=False),
    sa.Column('request_hash', sa.String(length=64), nullable=False),
    sa.Column('status', sa.Integer(), nullable=False),
    sa.Column('sealed', sa.LargeBinary(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('scope', 'key_hash', name='uq_write_answers_scope_key')
    )
    with op.batch_alter_table('write_answers', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_write_answers_created_at'), ['created_at'], unique=False)


def downgrade():
    with op.batch_alter_table('write_answers', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_write_answers_created_at'))

    op.drop_table('write_answers')
