// PROVISIONAL: written by hand from supabase/migrations until the generated file lands
// (the database owner replaces this file with `supabase gen types` output).

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

type Role = string

export type Database = {
  public: {
    Tables: {
      profiles: {
        Row: {
          id: string
          display_name: string
          avatar_color: string
          email: string | null
          created_at: string
          updated_at: string
        }
        Insert: never
        Update: { display_name?: string; avatar_color?: string }
        Relationships: []
      }
      workspaces: {
        Row: {
          id: string
          name: string
          created_by: string | null
          chat_model: string | null
          embedding_model: string | null
          created_at: string
          updated_at: string
        }
        Insert: {
          name: string
          created_by?: string | null
          chat_model?: string | null
          embedding_model?: string | null
        }
        Update: { name?: string; chat_model?: string | null; embedding_model?: string | null }
        Relationships: []
      }
      workspace_members: {
        Row: { workspace_id: string; user_id: string; role: Role; created_at: string }
        Insert: never
        Update: { role?: Role }
        Relationships: [
          {
            foreignKeyName: 'workspace_members_user_id_fkey'
            columns: ['user_id']
            isOneToOne: false
            referencedRelation: 'profiles'
            referencedColumns: ['id']
          },
          {
            foreignKeyName: 'workspace_members_workspace_id_fkey'
            columns: ['workspace_id']
            isOneToOne: false
            referencedRelation: 'workspaces'
            referencedColumns: ['id']
          },
        ]
      }
      workspace_invitations: {
        Row: {
          id: string
          workspace_id: string
          email: string
          role: Role
          token: string
          invited_by: string | null
          created_at: string
          expires_at: string
          accepted_at: string | null
          accepted_by: string | null
        }
        Insert: { workspace_id: string; email: string; role?: Role; invited_by?: string | null }
        Update: { role?: Role; expires_at?: string }
        Relationships: []
      }
    }
    Views: { [_ in never]: never }
    Functions: {
      accept_invitation: { Args: { invitation_token: string }; Returns: string }
      get_invitation: {
        Args: { invitation_token: string }
        Returns: {
          workspace_id: string
          workspace_name: string
          email: string
          role: Role
          invited_by_name: string | null
          expires_at: string
          accepted_at: string | null
        }[]
      }
      resend_invitation: {
        Args: { invitation_id: string }
        Returns: Database['public']['Tables']['workspace_invitations']['Row'][]
      }
    }
    Enums: { [_ in never]: never }
    CompositeTypes: { [_ in never]: never }
  }
}
